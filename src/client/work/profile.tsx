/**
 * /author/info and /teacher/info: my own profile — name, 学号/工号, major and phone are
 * mine to change; the school is set by the school admin and the email is changed (and
 * verified again) in account security.
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { Alert, Button, Card, Descriptions, Form, Input, Skeleton, Space, Tag } from "antd";
import type { ProfileUpdate, ProfileView } from "../../shared/profile/schema";
import { ROLE } from "../../shared/roles";
import { patch } from "../request";
import type { PageProps } from "../routing/model";
import { CURRENT_USER_KEY } from "../providers/session";
import { fetchData } from "../request";
import { MajorPicker } from "./MajorPicker";

const P = "/Backend/Common/profile";
type Values = Pick<ProfileUpdate, "name" | "memberNo" | "majorCode" | "phone">;

export default function ProfilePage({ route }: PageProps) {
  const query = useQuery({ queryKey: ["profile"], queryFn: () => fetchData<ProfileView>(P) });
  if (query.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (!query.data)
    return (
      <Card title={route.label}>
        <Alert type="error" showIcon message={query.error?.message ?? "个人信息加载失败"} />
      </Card>
    );
  return <ProfileCard title={route.label} profile={query.data} />;
}

const blank = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

function ProfileCard({ title, profile }: { title: string; profile: ProfileView }) {
  const [form] = Form.useForm<Values>();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const student = profile.userType === ROLE.author;
  const noLabel = student ? "学号" : "工号";

  const save = async (v: Values) => {
    setBusy(true);
    const reply = await patch<ProfileView>(P, {
      name: v.name?.trim(),
      memberNo: blank(v.memberNo),
      majorCode: v.majorCode ?? null,
      phone: blank(v.phone),
    });
    setBusy(false);
    if (reply.error === 0 && reply.data) {
      qc.setQueryData(["profile"], reply.data);
      // The header shows the name from the session.
      void qc.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    } else if (reply.status === 422) {
      const field = (reply.data as { field?: string } | undefined)?.field;
      if (field) form.setFields([{ name: field as keyof Values, errors: [reply.info] }]);
    }
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card title={title}>
        <Descriptions bordered column={{ xs: 1, md: 2 }} size="middle" data-testid="profile-info">
          <Descriptions.Item label="用户名">{profile.username}</Descriptions.Item>
          <Descriptions.Item label="身份">{profile.roleName}</Descriptions.Item>
          <Descriptions.Item label="所属学校">
            {profile.school ? `${profile.school.name}（${profile.school.province}）` : "未绑定学校"}
          </Descriptions.Item>
          <Descriptions.Item label="邮箱">
            <Space wrap>
              {profile.email ?? "未填写"}
              {profile.email && (profile.emailVerified ? <Tag color="success">已验证</Tag> : <Tag color="warning">未验证</Tag>)}
              <Link to="/account/security">在账号安全中修改</Link>
            </Space>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="修改个人信息">
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="所属学校由学校管理员设置，如有错误请联系学校管理员；邮箱请在「账号安全」中修改并重新验证。"
        />
        <Form<Values>
          form={form}
          layout="vertical"
          style={{ maxWidth: 560 }}
          onFinish={save}
          initialValues={{
            name: profile.name,
            memberNo: profile.memberNo ?? "",
            majorCode: profile.majorCode,
            phone: profile.phone ?? "",
          }}
        >
          <Form.Item
            name="name"
            label="姓名"
            rules={[
              { required: true, whitespace: true, message: "请填写姓名" },
              { min: 2, max: 40, message: "姓名为 2–40 个字" },
            ]}
            extra={student ? "与学生证一致；作品报名表和获奖证书使用此姓名" : "作品报名表和证书使用此姓名"}
          >
            <Input data-testid="profile-name" />
          </Form.Item>
          <Form.Item name="memberNo" label={noLabel} rules={[{ max: 40, message: "最多 40 个字符" }]}>
            <Input data-testid="profile-member-no" />
          </Form.Item>
          <Form.Item name="majorCode" label="专业" extra={student ? "数媒类作品的专业组按作者的专业认定" : undefined}>
            <MajorPicker
              current={profile.majorCode ? { code: profile.majorCode, name: profile.majorName } : undefined}
              data-testid="profile-major"
            />
          </Form.Item>
          <Form.Item name="phone" label="手机号" rules={[{ pattern: /^1\d{10}$/, message: "请填写 11 位手机号" }]}>
            <Input maxLength={11} data-testid="profile-phone" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="profile-save">
            保存
          </Button>
        </Form>
      </Card>
    </Space>
  );
}
