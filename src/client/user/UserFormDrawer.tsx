/**
 * Create and edit a user in a drawer, with the fields of the page's variant. Form fields
 * carry the API's names (role, schoolId, …) so a 422 reply lands under its field; the
 * edited record is mapped onto them when it loads.
 */
import { useState } from "react";
import { useDrawerForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Alert, Button, Drawer, Form, Input, Select, Space, Switch, Tag } from "antd";
import { ROLE } from "../../shared/roles";
import type { UserCreate, UserUpdate, UserView } from "../../shared/user/schema";
import { useSession } from "../providers/use-session";
import { isMaskedPhone } from "../../shared/mask";
import { RevealPhone } from "../components/RevealPhone";
import { AnyContestSelect, MajorSelect, MyContestSelect, SchoolSelect } from "./selects";
import { CLAIM_HINT, CONTEST_ROLES, SCHOOL_ROLES, roleOptions, type UserVariant } from "./variants";

/** The form's record: the view plus the API's field names. */
export type UserFormRecord = UserView & { role: number; schoolId: number | null };
type FormValues = Partial<UserCreate> & { email?: string | null; phone?: string | null; memberNo?: string | null };

const blank = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

/** The form's values as the API's create or update body. */
function toPayload(v: FormValues, variant: UserVariant, creating: boolean): UserCreate | UserUpdate {
  const common = {
    name: v.name,
    ...(variant.school === "select" ? { schoolId: v.schoolId ?? null } : {}),
    majorCode: blank(v.majorCode),
    ...(variant.complaintRight ? { hasComplaintRight: !!v.hasComplaintRight } : {}),
    ...(variant.judgeFlag && v.isSchoolContestJudge !== undefined ? { isSchoolContestJudge: !!v.isSchoolContestJudge } : {}),
  };
  if (!creating)
    return { ...common, role: v.role, email: blank(v.email), phone: blank(v.phone), memberNo: blank(v.memberNo) } as UserUpdate;
  const opt = (key: string, s: string | null | undefined) => (blank(s) ? { [key]: blank(s) } : {});
  return {
    ...common,
    username: v.username!.trim(),
    role: (variant.fixedType ?? v.role)!,
    ...opt("email", v.email),
    ...opt("phone", v.phone),
    ...opt("memberNo", v.memberNo),
    ...(v.contestId ? { contestId: v.contestId } : {}),
  } as UserCreate;
}

export function useUserDrawers(onSaved: () => void) {
  const common = {
    resource: "users",
    redirect: false as const,
    onMutationSuccess: onSaved,
    // refine's antd notifications show `description` as the title and `message` below it.
    errorNotification: (err?: HttpError) => ({
      type: "error" as const,
      description: "保存失败",
      message: err?.message ?? "请稍后重试",
    }),
  };
  const create = useDrawerForm<UserView, HttpError, FormValues>({
    ...common,
    action: "create",
    successNotification: (data) => ({
      type: "success",
      description: `已创建账号 ${(data?.data as UserView | undefined)?.username ?? ""}`,
      message: CLAIM_HINT,
    }),
  });
  const edit = useDrawerForm<UserView, HttpError, FormValues, UserFormRecord>({
    ...common,
    action: "edit",
    successNotification: () => ({ type: "success", description: "用户信息已保存", message: "" }),
    queryOptions: { select: ({ data }) => ({ data: { ...data, role: data.userType, schoolId: data.school?.id ?? null } }) },
  });
  return { create, edit };
}

type Drawers = ReturnType<typeof useUserDrawers>;

type DrawerProps = { variant: UserVariant; drawer: Drawers["create"] | Drawers["edit"]; creating: boolean };

/**
 * The create or edit drawer, mounted when it is first opened and kept from then on (issue 15):
 * refine's useDrawerForm asks antd to render the closed drawer's form at once (forceRender), which
 * put two whole forms with their selects (and the selects' requests) in the list's first render.
 */
export function UserFormDrawer(props: DrawerProps) {
  const open = !!props.drawer.drawerProps.open;
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <UserFormDrawerBody {...props} /> : null;
}

function UserFormDrawerBody({ variant, drawer, creating }: DrawerProps) {
  const { user } = useSession();
  const form = drawer.formProps.form;
  const record = (drawer.query?.data?.data ?? undefined) as UserFormRecord | undefined;
  const role = (Form.useWatch("role", form) as number | undefined) ?? variant.fixedType;
  const title = creating ? `新建${variant.noun}` : `编辑${variant.noun}${record ? `：${record.name}` : ""}`;
  const initial = creating ? { role: variant.defaultRole, hasComplaintRight: false, isSchoolContestJudge: false } : undefined;

  return (
    <Drawer
      {...drawer.drawerProps}
      title={title}
      width={520}
      destroyOnHidden
      extra={
        <Button type="primary" {...drawer.saveButtonProps} data-testid="user-save">
          保存
        </Button>
      }
    >
      {creating ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="新建的账号没有密码"
          description="请填写邮箱：用户在“找回密码”页用用户名或邮箱收取链接，自行设置密码后即可登录。"
        />
      ) : (
        record?.needsClaim && (
          <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={CLAIM_HINT} data-testid="user-needs-claim" />
        )
      )}
      <Form<FormValues>
        {...drawer.formProps}
        name={creating ? "user-create" : "user-edit"}
        layout="vertical"
        initialValues={creating ? initial : drawer.formProps.initialValues}
        onFinish={(v) => drawer.formProps.onFinish?.(toPayload(v, variant, creating) as FormValues)}
      >
        <Form.Item
          name="username"
          label="用户名"
          rules={
            creating
              ? [{ required: true, pattern: /^[A-Za-z0-9_.@-]{3,32}$/, message: "用户名为 3–32 位字母、数字或 _ . @ -" }]
              : []
          }
          extra={creating ? "登录用，创建后不能修改" : undefined}
        >
          <Input disabled={!creating} autoComplete="off" />
        </Form.Item>
        <Form.Item name="name" label="姓名" rules={[{ required: true, min: 2, max: 40, message: "请输入 2–40 个字的姓名" }]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="role"
          label="身份"
          rules={[{ required: true, message: "请选择身份" }]}
          hidden={variant.roles.length === 1}
        >
          <Select options={roleOptions(variant.roles)} />
        </Form.Item>
        {creating && role !== undefined && CONTEST_ROLES.includes(role) && (
          <Form.Item
            name="contestId"
            label="加入赛事"
            rules={variant.contest === "mine" ? [{ required: true, message: "请选择评委或审核员所属的赛事" }] : []}
            extra={variant.contest === "mine" ? "只能加入您负责的赛事" : "可选：赛事管理员、审核员、评委可同时加入一个赛事"}
          >
            {variant.contest === "mine" ? <MyContestSelect /> : <AnyContestSelect allowClear />}
          </Form.Item>
        )}
        {variant.school === "own" ? (
          <Form.Item label="学校" extra="学校管理员只能管理本校的账号">
            <Input value={user.school?.name ?? "（未设置学校）"} disabled data-testid="user-own-school" />
          </Form.Item>
        ) : (
          <Form.Item
            name="schoolId"
            label="学校"
            rules={role !== undefined && SCHOOL_ROLES.includes(role) ? [{ required: true, message: "该身份须选择所属学校" }] : []}
            extra={variant.key === "contest" ? "可选：评委的学校用于评审回避" : undefined}
          >
            <SchoolSelect
              allowClear
              known={record?.school ? { value: record.school.id, label: `${record.school.name}（${record.school.code}）` } : null}
            />
          </Form.Item>
        )}
        <Form.Item name="memberNo" label={variant.memberNoLabel} rules={[{ max: 40, message: "最多 40 个字符" }]}>
          <Input />
        </Form.Item>
        {variant.major && (variant.key !== "all" || role === ROLE.author) && (
          <Form.Item name="majorCode" label="专业">
            <MajorSelect
              allowClear
              known={
                record?.majorCode ? { value: record.majorCode, label: `${record.majorCode} ${record.majorName ?? ""}` } : null
              }
            />
          </Form.Item>
        )}
        <Form.Item
          name="email"
          label={
            <Space>
              邮箱
              {record?.email && (record.emailVerified ? <Tag color="green">已验证</Tag> : <Tag>未验证</Tag>)}
            </Space>
          }
          rules={[{ type: "email", message: "邮箱格式不正确" }]}
          extra={creating ? "找回密码（激活账号）的链接发到这里" : "修改后需重新验证"}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <PhoneItem creating={creating} record={record} />
        {variant.complaintRight && (
          <Form.Item name="hasComplaintRight" label="申诉权" valuePropName="checked" extra="可以受理和处理申诉">
            <Switch />
          </Form.Item>
        )}
        {variant.judgeFlag && role === ROLE.teacher && (
          <Form.Item name="isSchoolContestJudge" label="校赛评委" valuePropName="checked" extra="可以评审本校校级赛的作品">
            <Switch />
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
}

/** The phone field: others' phones arrive masked; 「显示」 (audited) puts the full number into the field. */
function PhoneItem({ creating, record }: { creating: boolean; record: UserFormRecord | undefined }) {
  const { allows } = useSession();
  const form = Form.useFormInstance<FormValues>();
  return (
    <Form.Item
      name="phone"
      label="手机号"
      rules={[
        {
          // The edit form shows others' phones masked; saved unchanged, the server keeps the stored number.
          validator: (_, v: string | undefined) =>
            !v || /^1\d{10}$/.test(v) || (!creating && v === record?.phone)
              ? Promise.resolve()
              : Promise.reject(new Error("手机号为 1 开头的 11 位数字")),
        },
      ]}
      extra={
        !creating && record && isMaskedPhone(record.phone) ? (
          <Space size={4}>
            已脱敏显示，不修改则保留原号码
            <RevealPhone
              phone={record.phone}
              url={`/Backend/Admin/user/${record.id}/phone`}
              canReveal={allows(["api.phoneReveal", "read"])}
              owner="该用户的"
              linkOnly
              onRevealed={(full) => form?.setFieldValue("phone", full ?? "")}
            />
          </Space>
        ) : undefined
      }
    >
      <Input />
    </Form.Item>
  );
}
