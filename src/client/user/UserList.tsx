/**
 * The one user list behind /admin/UserManagement, /ContestAdmin/UserManagement,
 * /school/AuthorManagement and /school/TeacherManagement, set up by a variant
 * (./variants.ts). Server pagination, sorting and filters; create and edit in a drawer;
 * lock, unlock, reset link and delete per row; Excel import and export of the filtered view.
 */
import { useCallback, useMemo, useRef } from "react";
import { CreateButton } from "@refinedev/antd";
import { useList, type CrudFilter } from "@refinedev/core";
import { Card, Space, Table, Typography } from "antd";
import { ROLE } from "../../shared/roles";
import type { SchoolView } from "../../shared/school/schema";
import type { UserView } from "../../shared/user/schema";
import { Clipped } from "../components/Clipped";
import { Inline, Lines, Muted } from "../components/light";
import { LightTag as Tag, TagStyles } from "../components/light-tag";
import { OnDemand } from "../components/on-demand";
import { ImportExport } from "../crud/ImportExport";
import { filtersObject } from "../crud/filters";
import { ListTable, useListTable } from "../crud/use-list-table";
import { useSession } from "../providers/use-session";
import { useCanNow } from "../providers/use-can-now";
import type { PageProps } from "../routing/model";
import { UserRowActions, useUserRowPermissions } from "./RowActions";
import { UserFilterBar, userListAddress } from "./UserFilterBar";
import { UserFormDrawer, useUserDrawers } from "./UserFormDrawer";
import { CLAIM_HINT, MEMBER_ROLE_NAMES, roleColor, type UserVariant } from "./variants";

const muted = (text: string) => <Muted>{text}</Muted>;
const NO_CHECK = { enabled: false };

export function UserStatus({ user }: { user: UserView }) {
  if (user.archived) return <Tag>已归档</Tag>;
  if (user.locked) return <Tag color="red">已锁定</Tag>;
  if (user.needsClaim) {
    return (
      <OnDemand tip={CLAIM_HINT}>
        <Tag color="orange">待激活</Tag>
      </OnDemand>
    );
  }
  return <Tag color="green">正常</Tag>;
}

/** School pages: whose accounts these are, the claim step, and what to put in an import file. */
function OwnSchoolHint({ variant }: { variant: UserVariant }) {
  // For a school admin the schools list holds exactly the own school.
  const { result } = useList<SchoolView>({ resource: "schools", pagination: { currentPage: 1, pageSize: 1 } });
  const school = result.data[0];
  return (
    <Typography.Paragraph type="secondary">
      本页只列出{school?.name ?? "本校"}的{variant.noun}
      。新建或导入的账号处于“待激活”状态：用户需通过“找回密码”用邮箱设置密码后才能登录。 导入时“身份”填“
      {variant.fixedType === ROLE.teacher ? "教师" : "学生"}”，“学校代码”填本校代码{school ? ` ${school.code}` : ""}。
    </Typography.Paragraph>
  );
}

/**
 * The columns between the name and the status, by variant: role, school or member number,
 * major, email, contests, permission flags. A fragment of Table.Column elements: the table
 * reads it as if the columns were written in place.
 */
function profileColumns(variant: UserVariant, many: boolean) {
  return (
    <>
      {many && (
        <Table.Column<UserView>
          dataIndex="userType"
          title="身份"
          sorter
          width={115}
          render={(t: number, r) => <Tag color={roleColor(t)}>{r.roleName}</Tag>}
        />
      )}
      {variant.school === "select" ? (
        <Table.Column<UserView>
          dataIndex="schoolId"
          title={`学校 / ${variant.memberNoLabel}`}
          sorter
          width={170}
          render={(_, r) => (
            <Lines>
              {r.school?.name ?? muted("—")}
              {r.memberNo && <Muted>{r.memberNo}</Muted>}
            </Lines>
          )}
        />
      ) : (
        <Table.Column<UserView>
          dataIndex="memberNo"
          title={variant.memberNoLabel}
          sorter
          width={130}
          render={(v: string | null) => v ?? muted("—")}
        />
      )}
      {variant.key === "students" && (
        <Table.Column<UserView>
          dataIndex="majorName"
          title="专业"
          width={180}
          render={(v: string | null, r) => (r.majorCode ? `${v ?? ""}（${r.majorCode}）` : muted("—"))}
        />
      )}
      <Table.Column<UserView>
        dataIndex="email"
        title="邮箱"
        width={210}
        render={(v: string | null, r) =>
          v ? (
            <Lines>
              <Clipped text={v} maxWidth={190} />
              {r.emailVerified ? <Tag color="green">已验证</Tag> : <Tag>未验证</Tag>}
            </Lines>
          ) : (
            muted("未填写")
          )
        }
      />
      {variant.key === "contest" && (
        <Table.Column<UserView>
          dataIndex="contests"
          title="所属赛事"
          width={210}
          render={(list: UserView["contests"]) =>
            list.length ? (
              <Lines gap={2}>
                {list.map((c) => (
                  <Clipped key={`${c.id}-${c.role}`} text={c.name} maxWidth={190}>
                    <Tag>{MEMBER_ROLE_NAMES[c.role] ?? c.role}</Tag>
                    {c.name}
                  </Clipped>
                ))}
              </Lines>
            ) : (
              muted("—")
            )
          }
        />
      )}
      {(variant.complaintRight || variant.judgeFlag) && (
        <Table.Column<UserView>
          title="权限标记"
          width={110}
          render={(_, r) => (
            <Inline gap={4}>
              {variant.complaintRight && r.hasComplaintRight && <Tag color="purple">申诉权</Tag>}
              {variant.judgeFlag && r.isSchoolContestJudge && <Tag color="blue">校赛评委</Tag>}
              {!(variant.complaintRight && r.hasComplaintRight) && !(variant.judgeFlag && r.isSchoolContestJudge) && muted("—")}
            </Inline>
          )}
        />
      )}
    </>
  );
}

export function UserList({ route, variant }: PageProps & { variant: UserVariant }) {
  const { user: me } = useSession();
  const rowCan = useUserRowPermissions();
  // Asked while rendering (refine's own check is a query answered a render later).
  const canCreate = useCanNow()("users", "create");
  const permanent = useMemo<CrudFilter[]>(
    () => (variant.fixedType !== undefined ? [{ field: "userType", operator: "in", value: [variant.fixedType] }] : []),
    [variant],
  );
  const address = useMemo(() => userListAddress(variant), [variant]);
  const { tableProps, setFilters, filters, tableQuery, values, view, formKey } = useListTable<UserView>({
    resource: "users",
    address,
    permanent,
  });
  const refresh = () => void tableQuery.refetch();
  const { create, edit } = useUserDrawers(refresh);
  // One function for the page's life: the memoised filter bar does not render again with the list.
  const setFiltersNow = useRef(setFilters);
  setFiltersNow.current = setFilters;
  const setFilter = useCallback(
    (field: string, value: unknown, operator: "eq" | "in" = "eq") =>
      setFiltersNow.current([{ field, operator, value } as CrudFilter], "merge"),
    [],
  );
  const many = variant.roles.length > 1;

  return (
    <Card
      title={route.label}
      extra={
        <Space>
          <ImportExport resource="users" filters={filtersObject(filters)} onImported={refresh} />
          {canCreate && (
            <CreateButton resource="users" accessControl={NO_CHECK} onClick={() => create.show()} data-testid="user-create">
              新建{variant.noun}
            </CreateButton>
          )}
        </Space>
      }
    >
      {variant.school === "own" && <OwnSchoolHint variant={variant} />}
      <UserFilterBar key={formKey} variant={variant} setFilter={setFilter} values={values} />
      <TagStyles>
        <ListTable
          {...tableProps}
          sort={view.sort}
          rowKey="id"
          size="middle"
          scroll={{ x: "max-content" }}
          data-testid="user-table"
        >
          <Table.Column<UserView>
            dataIndex="username"
            title="用户名 / 姓名"
            sorter
            fixed="left"
            width={150}
            render={(v: string, r) => (
              <Lines>
                <strong style={{ fontWeight: 600 }}>{r.name}</strong>
                <Clipped type="secondary" text={v} maxWidth={130} />
              </Lines>
            )}
          />
          {profileColumns(variant, many)}
          <Table.Column<UserView> title="状态" width={90} render={(_, r) => <UserStatus user={r} />} />
          <Table.Column<UserView>
            title="操作"
            fixed="right"
            width={130}
            render={(_, r) => (
              <UserRowActions user={r} selfId={me.id} can={rowCan} onEdit={() => edit.show(r.id)} onChanged={refresh} />
            )}
          />
        </ListTable>
      </TagStyles>
      <UserFormDrawer variant={variant} drawer={create} creating />
      <UserFormDrawer variant={variant} drawer={edit} creating={false} />
    </Card>
  );
}
