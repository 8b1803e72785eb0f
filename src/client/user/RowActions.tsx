/**
 * The actions on one user row: edit, lock or unlock, send the password-reset (account
 * claim) link, delete (the server archives a user with records). Buttons follow the
 * policy, looked up once per table (useUserRowPermissions) rather than once per row and button
 * (issue 15: 20 rows asked refine's access control 60 times before the page settled).
 */
import { useState } from "react";
import { DeleteButton, EditButton } from "@refinedev/antd";
import { Button } from "antd";
import { DeleteOutlined, LockOutlined, MailOutlined, UnlockOutlined } from "@ant-design/icons";
import type { UserView } from "../../shared/user/schema";
import { post } from "../request";
import { OnDemand } from "../components/on-demand";
import { Inline } from "../components/light";
import { useCanNow } from "../providers/use-can-now";

type Action = "lock" | "unlock" | "reset-password";

/** What the signed-in user may do to users: refine's edit and delete of "users", and api.users update. */
export interface UserRowPermissions {
  edit?: boolean;
  delete?: boolean;
  update?: boolean;
}

/** The table's one lookup of the row buttons' permissions (answered while rendering, useCanNow). */
export function useUserRowPermissions(): UserRowPermissions {
  const can = useCanNow();
  return { edit: can("users", "edit"), delete: can("users", "delete"), update: can("api.users", "update") };
}

const NO_CHECK = { enabled: false };

export function UserRowActions({
  user,
  selfId,
  can,
  onEdit,
  onChanged,
}: {
  user: UserView;
  selfId?: number;
  can: UserRowPermissions;
  onEdit: () => void;
  onChanged: () => void;
}) {
  const canUpdate = can.update;
  const [busy, setBusy] = useState<Action | null>(null);
  const self = user.id === selfId;

  const act = async (action: Action) => {
    setBusy(action);
    const reply = await post(`/Backend/Admin/user/${user.id}/${action}`);
    setBusy(null);
    if (reply.error === 0) onChanged();
  };

  return (
    <Inline gap={4}>
      {can.edit && (
        <EditButton
          size="small"
          hideText
          aria-label="编辑"
          resource="users"
          recordItemId={user.id}
          onClick={onEdit}
          accessControl={NO_CHECK}
        />
      )}
      {canUpdate &&
        !self &&
        !user.archived &&
        (user.locked ? (
          <OnDemand
            tip="解锁"
            confirm={{ title: "解锁该账号？解锁后用户可以重新登录。", okText: "解锁", onConfirm: () => act("unlock") }}
          >
            <Button
              size="small"
              icon={<UnlockOutlined />}
              aria-label="解锁"
              loading={busy === "unlock"}
              data-testid={`user-unlock-${user.username}`}
            />
          </OnDemand>
        ) : (
          <OnDemand
            tip="锁定"
            confirm={{
              title: "锁定该账号？用户将不能登录，已登录的设备会立即退出。",
              okText: "锁定",
              okButtonProps: { danger: true },
              onConfirm: () => act("lock"),
            }}
          >
            <Button
              size="small"
              icon={<LockOutlined />}
              aria-label="锁定"
              loading={busy === "lock"}
              data-testid={`user-lock-${user.username}`}
            />
          </OnDemand>
        ))}
      {canUpdate && !user.archived && (
        <OnDemand
          tip={user.locked ? "已锁定的账号请先解锁" : "发送重置密码链接"}
          confirm={{
            title: user.email ? `向 ${user.email} 发送重置密码链接？` : "该用户没有邮箱",
            description: user.email
              ? "用户通过链接设置新密码（待激活的账号由此激活），30 分钟内有效。"
              : "请先编辑用户，填写邮箱后再发送。",
            okText: "发送",
            okButtonProps: { disabled: !user.email || user.locked },
            onConfirm: () => act("reset-password"),
          }}
        >
          <Button
            size="small"
            icon={<MailOutlined />}
            aria-label="发送重置密码链接"
            loading={busy === "reset-password"}
            disabled={user.locked}
          />
        </OnDemand>
      )}
      {can.delete && !self && !user.archived && (
        <OnDemand
          real={
            <DeleteButton
              size="small"
              hideText
              aria-label="删除"
              accessControl={NO_CHECK}
              resource="users"
              recordItemId={user.id}
              confirmTitle="删除该用户？已有作品、评审等记录的账号将改为归档并锁定。"
              confirmOkText="删除"
              confirmCancelText="取消"
              successNotification={(data) => ({
                type: "success",
                message:
                  (data as { data?: { result?: string } } | undefined)?.data?.result === "archived"
                    ? "该用户已有业务记录，已归档并锁定"
                    : "用户已删除",
              })}
              errorNotification={(err) => ({
                type: "error",
                description: "删除失败",
                message: (err as { message?: string } | undefined)?.message ?? "请稍后重试",
              })}
              onSuccess={onChanged}
            />
          }
        >
          <Button size="small" danger icon={<DeleteOutlined />} title="删除" aria-label="删除" className="refine-delete-button" />
        </OnDemand>
      )}
    </Inline>
  );
}
