/**
 * /ContestAdmin/AddWork (contest admin, root): enter a work on a school's behalf into a
 * provincial contest in scope, from the school's signed registration form. Authors and
 * teachers by username (first author first; the work belongs to the first author's school);
 * the work starts at 省赛已接收 and the submit checks apply — the server's rule messages
 * are shown as they come, under the field they name.
 */
import { useState } from "react";
import { Link } from "react-router";
import { useList } from "@refinedev/core";
import { Alert, Button, Card, Form, Result, Space } from "antd";
import type { ContestView } from "../../shared/contest/schema";
import type { AdminWorkCreate, WorkView } from "../../shared/work/schema";
import { fieldOf, post } from "../request";
import type { PageProps } from "../routing/model";
import { printPath } from "../work/api";
import { AiDeclarationForm, toAiDeclaration } from "../work/components/AiDeclarationForm";
import { detailPath } from "./api";
import { AddWorkFields, type AddWorkValues } from "./parts/AddWorkFields";

const blank = (s: string | null | undefined) => (s && s.trim() ? s.trim() : null);

function toBody(v: AddWorkValues): AdminWorkCreate {
  return {
    contestId: v.contestId,
    categoryId: v.categoryId,
    subcategoryId: v.subcategoryId ?? null,
    group: v.group ?? "normal",
    name: v.name.trim(),
    authors: v.authors.map((u) => u.trim()),
    teachers: (v.teachers ?? []).map((u) => u.trim()),
    summary: blank(v.summary),
    designIdea: blank(v.designIdea),
    keyPoints: blank(v.keyPoints),
    openSource: blank(v.openSource),
    installGuide: blank(v.installGuide),
    teacherReview: blank(v.teacherReview),
    otherNotes: blank(v.otherNotes),
    deployLink1: blank(v.deployLink1),
    deployLink2: blank(v.deployLink2),
    aiDeclaration: toAiDeclaration(v.aiDeclaration),
  };
}

export default function AddWork({ route }: PageProps) {
  const [form] = Form.useForm<AddWorkValues>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<WorkView | null>(null);
  const { result, query } = useList<ContestView>({
    resource: "contests",
    filters: [
      { field: "level", operator: "eq", value: "provincial" },
      { field: "archived", operator: "eq", value: false },
    ],
    sorters: [{ field: "year", order: "desc" }],
    pagination: { currentPage: 1, pageSize: 100 },
  });
  const contests = result.data ?? [];

  const save = async (v: AddWorkValues) => {
    setSaving(true);
    setError(null);
    const reply = await post<WorkView>("/Backend/Admin/work", toBody(v), { notify: false });
    setSaving(false);
    if (reply.error === 0 && reply.data) {
      setCreated(reply.data);
      return;
    }
    setError(reply.info || "录入失败");
    const field = fieldOf(reply);
    if (field && form.getFieldInstance(field)) form.setFields([{ name: field as keyof AddWorkValues, errors: [reply.info] }]);
  };

  if (created) {
    return (
      <Card title={route.label} data-testid="add-work-done">
        <Result
          status="success"
          title={`作品已录入，编号 ${created.id}`}
          subTitle={`《${created.name}》— ${created.school.name}，${created.contest.name}，状态：${created.statusName}`}
          extra={[
            <Link key="detail" to={detailPath(created.id)}>
              <Button type="primary">查看作品</Button>
            </Link>,
            <a key="print" href={printPath("Registration", created.id)} target="_blank" rel="noreferrer">
              <Button>打印报名表</Button>
            </a>,
            <Button key="again" onClick={() => (setCreated(null), form.resetFields())}>
              继续录入
            </Button>,
          ]}
        />
      </Card>
    );
  }

  return (
    <Card title={route.label}>
      <Alert
        style={{ marginBottom: 16 }}
        type="info"
        showIcon
        message="依据学校提交并盖章的报名表代为录入：作者由您确认，录入后作品直接为“省赛已接收”；作品须满足提交要求（名称、简介、设计思路、设计重点和难点、AI工具使用声明等）。"
      />
      {error && (
        <Alert
          style={{ marginBottom: 16 }}
          type="error"
          showIcon
          message={error}
          data-testid="add-work-error"
          closable
          onClose={() => setError(null)}
        />
      )}
      <Form<AddWorkValues>
        form={form}
        layout="vertical"
        onFinish={save}
        scrollToFirstError
        initialValues={{ group: "normal", authors: [], teachers: [], aiDeclaration: { used: undefined, tools: [] } }}
        data-testid="add-work-form"
      >
        <AddWorkFields form={form} contests={contests} loadingContests={query.isLoading} />
        <AiDeclarationForm />
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="add-work-submit">
            录入作品
          </Button>
          <Button onClick={() => (form.resetFields(), setError(null))}>清空</Button>
        </Space>
      </Form>
    </Card>
  );
}
