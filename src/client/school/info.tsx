/**
 * /school/schoolInfo: the school admin's own school (the schools list holds exactly it for
 * a school admin). Name, code and province are read-only — a school admin may change only
 * the contact and the former names, as the server allows.
 */
import { useForm } from "@refinedev/antd";
import { useList, type HttpError } from "@refinedev/core";
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Select, Skeleton, Space, Tag } from "antd";
import type { SchoolUpdate, SchoolView } from "../../shared/school/schema";
import type { PageProps } from "../routing/model";

type Values = Pick<SchoolUpdate, "contact" | "formerNames">;

export default function SchoolInfo({ route }: PageProps) {
  const { result, query } = useList<SchoolView>({ resource: "schools", pagination: { currentPage: 1, pageSize: 1 } });
  const school = result.data[0];
  if (query.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (query.isError)
    return (
      <Card title={route.label}>
        <Alert type="error" showIcon message={query.error?.message ?? "学校信息加载失败"} />
      </Card>
    );
  if (!school)
    return (
      <Card title={route.label}>
        <Empty description="您的账号没有关联学校，请联系赛事管理员" />
      </Card>
    );
  return <SchoolInfoCard title={route.label} school={school} onSaved={() => void query.refetch()} />;
}

function SchoolInfoCard({ title, school, onSaved }: { title: string; school: SchoolView; onSaved: () => void }) {
  // The record is already loaded: no second fetch that could overwrite what the user types.
  const { formProps, saveButtonProps } = useForm<SchoolView, HttpError, Values>({
    resource: "schools",
    action: "edit",
    id: school.id,
    redirect: false,
    queryOptions: { enabled: false },
    onMutationSuccess: onSaved,
    // refine's antd notifications show `description` as the title.
    successNotification: () => ({ type: "success", description: "学校信息已保存", message: "" }),
    errorNotification: (err) => ({ type: "error", description: "保存失败", message: err?.message ?? "请稍后重试" }),
  });
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card title={title}>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="middle" data-testid="school-info">
          <Descriptions.Item label="学校名称">
            {school.name} {school.archived && <Tag>已归档</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label="学校代码">{school.code}</Descriptions.Item>
          <Descriptions.Item label="省份">{school.province}</Descriptions.Item>
          <Descriptions.Item label="学校管理员">{school.adminCount} 人</Descriptions.Item>
          <Descriptions.Item label="曾用名" span={2}>
            {school.formerNames.length ? school.formerNames.join("、") : "无"}
          </Descriptions.Item>
          <Descriptions.Item label="联系方式" span={2}>
            {school.contact || "未填写"}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="修改联系方式与曾用名">
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="学校名称、代码和省份由赛事管理员维护；如需更正，请联系所在省赛的赛事管理员。"
        />
        <Form<Values>
          {...formProps}
          initialValues={{ contact: school.contact ?? "", formerNames: school.formerNames }}
          layout="vertical"
          style={{ maxWidth: 560 }}
          onFinish={(v) =>
            formProps.onFinish?.({ contact: v.contact?.trim() ? v.contact.trim() : null, formerNames: v.formerNames ?? [] })
          }
        >
          <Form.Item
            name="contact"
            label="联系方式"
            rules={[{ max: 200, message: "最多 200 个字" }]}
            extra="联系人、电话或邮箱，供赛事组织方联系"
          >
            <Input.TextArea rows={2} data-testid="school-contact" />
          </Form.Item>
          <Form.Item
            name="formerNames"
            label="曾用名"
            extra="学校更名前的名称，便于查找历史作品；输入后按回车添加"
            rules={[{ type: "array", max: 10, message: "最多 10 个曾用名" }]}
          >
            <Select mode="tags" tokenSeparators={["、", ",", "，"]} open={false} />
          </Form.Item>
          <Button type="primary" {...saveButtonProps} data-testid="school-save">
            保存
          </Button>
        </Form>
      </Card>
    </Space>
  );
}
