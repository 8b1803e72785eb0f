/**
 * /query-work (anonymous visitors): a work id plus the name of one of its authors → the
 * work's status and, once results are published, its award — nothing else. Any mismatch
 * gets the server's one generic answer.
 */
import { useState } from "react";
import { Alert, Button, Card, Descriptions, Form, Input } from "antd";
import { SearchOutlined } from "@ant-design/icons";
import type { QueryWorkResult } from "../../shared/work/schema";
import { post } from "../request";

interface Values {
  workId: string;
  authorName: string;
}

export default function QueryWork({ route }: { route: { label: string } }) {
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<QueryWorkResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const search = async (v: Values) => {
    setBusy(true);
    setFound(null);
    setError(null);
    const reply = await post<QueryWorkResult>(
      "/Backend/Public/query-work",
      { workId: Number(v.workId.trim()), authorName: v.authorName.trim() },
      { notify: false },
    );
    setBusy(false);
    if (reply.error === 0 && reply.data) setFound(reply.data);
    else setError(reply.info || "查询失败，请稍后再试");
  };

  return (
    <Card title={route.label} style={{ maxWidth: 640 }}>
      <Form<Values> layout="vertical" onFinish={search} data-testid="query-work-form">
        <Form.Item
          name="workId"
          label="作品编号"
          rules={[
            { required: true, message: "请输入作品编号" },
            { pattern: /^\s*\d{10}\s*$/, message: "作品编号为 10 位数字，例如 2026000123" },
          ]}
        >
          <Input placeholder="10 位数字" maxLength={12} data-testid="query-work-id" />
        </Form.Item>
        <Form.Item
          name="authorName"
          label="作者姓名"
          extra="填写任一作者的姓名"
          rules={[{ required: true, whitespace: true, message: "请输入作者姓名" }, { max: 40 }]}
        >
          <Input placeholder="任一作者的姓名" data-testid="query-author-name" />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={busy} data-testid="query-submit">
          查询
        </Button>
      </Form>
      {error && <Alert style={{ marginTop: 16 }} type="warning" showIcon message={error} data-testid="query-error" />}
      {found && (
        <Descriptions style={{ marginTop: 16 }} bordered column={1} size="small" data-testid="query-result">
          <Descriptions.Item label="作品编号">{found.id}</Descriptions.Item>
          <Descriptions.Item label="状态">{found.statusName}</Descriptions.Item>
          <Descriptions.Item label="奖项">{found.award ?? "暂无"}</Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
