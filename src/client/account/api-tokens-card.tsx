/**
 * 「API 令牌」 on /account/security (roles 0/1/2): the user's tokens, a create dialog whose
 * resource choices come from the casbin policy the browser already loads (tokenObjects),
 * the secret shown once with a copy button, and revocation with confirmation.
 */
import { useState } from "react";
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import type { TableColumnsType } from "antd";
import { useQuery } from "@tanstack/react-query";
import type { Dayjs } from "dayjs";
import { resourceLabel, tokenObjects, TOKEN_MAX_DAYS, type TokenView } from "../../shared/token/schema";
import { policyReady } from "../providers/access-control";
import { getCurrentUser } from "../providers/session";
import { accountApi } from "./api";
import { fmtTime, bj, pickerIso } from "../format";

const STATUS: Record<TokenView["status"], [string, string]> = {
  active: ["有效", "green"],
  expired: ["已过期", "default"],
  revoked: ["已吊销", "red"],
};

interface FormValues {
  name: string;
  access: "ro" | "rw";
  resources: string[];
  expiresAt: Dayjs;
}

/** The token list's columns; 吊销 (with confirmation) on an active token. */
function tokenColumns(onRevoked: () => void): TableColumnsType<TokenView> {
  return [
    { title: "名称", dataIndex: "name" },
    {
      title: "权限",
      dataIndex: "readOnly",
      render: (ro: boolean) => (ro ? <Tag>只读</Tag> : <Tag color="orange">读写</Tag>),
    },
    { title: "资源", dataIndex: "resources", render: (rs: string[]) => rs.map(resourceLabel).join("、") },
    { title: "到期时间", dataIndex: "expiresAt", render: fmtTime },
    {
      title: "最近使用",
      key: "used",
      render: (_v, t) => (t.lastUsedAt ? `${fmtTime(t.lastUsedAt)}（${t.lastUsedAddr ?? "—"}）` : "从未使用"),
    },
    {
      title: "状态",
      dataIndex: "status",
      render: (s: TokenView["status"]) => <Tag color={STATUS[s][1]}>{STATUS[s][0]}</Tag>,
    },
    {
      title: "操作",
      key: "action",
      render: (_v, t) =>
        t.status === "active" ? (
          <Popconfirm
            title={`吊销令牌「${t.name}」？使用它的程序将立即无法访问。`}
            okText="吊销"
            cancelText="取消"
            onConfirm={async () => {
              const reply = await accountApi.revokeApiToken(t.id);
              if (reply.error === 0) onRevoked();
            }}
          >
            <Button type="link" danger size="small">
              吊销
            </Button>
          </Popconfirm>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
  ];
}

export function ApiTokensCard() {
  const list = useQuery({
    queryKey: ["account-api-tokens"],
    queryFn: async () => {
      const reply = await accountApi.apiTokens();
      if (reply.error !== 0 || !reply.data) throw new Error(reply.info || "加载失败");
      return reply.data.items;
    },
  });
  // What a token may list: derived from the one policy for the current user.
  const choices = useQuery({
    queryKey: ["api-token-objects"],
    queryFn: async () => tokenObjects(await policyReady(), await getCurrentUser()),
    staleTime: Infinity,
  });
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<FormValues>();

  const submit = async (v: FormValues) => {
    setSaving(true);
    setError(null);
    const reply = await accountApi.createApiToken({
      name: v.name,
      readOnly: v.access === "ro",
      resources: v.resources,
      expiresAt: pickerIso(v.expiresAt.endOf("day")),
    });
    setSaving(false);
    if (reply.error !== 0 || !reply.data) return setError(reply.info);
    setSecret(reply.data.secret);
    void list.refetch();
  };
  const close = () => {
    setOpen(false);
    setSecret(null);
    setError(null);
    form.resetFields();
  };

  return (
    <Card
      title="API 令牌"
      data-testid="api-tokens-card"
      extra={
        <Button type="primary" onClick={() => setOpen(true)}>
          创建令牌
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        供本校教务系统等程序调用接口：请求头带 <Typography.Text code>Authorization: Bearer 令牌</Typography.Text>
        ，以您的身份和管理范围访问所选资源。
      </Typography.Paragraph>
      <Table<TokenView>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        pagination={false}
        dataSource={list.data ?? []}
        scroll={{ x: 860 }}
        locale={{ emptyText: "还没有令牌" }}
        columns={tokenColumns(() => void list.refetch())}
      />
      <Modal
        title="创建 API 令牌"
        open={open}
        onCancel={close}
        destroyOnHidden
        footer={
          secret ? (
            <Button type="primary" onClick={close}>
              我已保存，关闭
            </Button>
          ) : undefined
        }
        okText="创建"
        cancelText="取消"
        confirmLoading={saving}
        onOk={() => form.submit()}
      >
        {secret ? (
          <Space direction="vertical" style={{ width: "100%" }}>
            <Alert type="warning" showIcon message="请立即复制保存令牌：关闭后将无法再次查看。" />
            <Typography.Paragraph
              code
              copyable={{ text: secret, tooltips: ["复制", "已复制"] }}
              style={{ wordBreak: "break-all" }}
              data-testid="api-token-secret"
            >
              {secret}
            </Typography.Paragraph>
          </Space>
        ) : (
          <Form<FormValues>
            form={form}
            layout="vertical"
            onFinish={submit}
            initialValues={{ access: "ro", resources: [], expiresAt: bj().add(90, "day") }}
          >
            {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
            <Form.Item
              name="name"
              label="名称"
              rules={[
                { required: true, whitespace: true, message: "请填写令牌名称" },
                { max: 60, message: "名称不能超过 60 个字" },
              ]}
            >
              <Input placeholder="例如：教务系统同步" maxLength={60} />
            </Form.Item>
            <Form.Item name="access" label="权限">
              <Radio.Group
                options={[
                  { value: "ro", label: "只读" },
                  { value: "rw", label: "读写" },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="resources"
              label="可访问的资源"
              rules={[{ required: true, type: "array", min: 1, message: "请至少选择一个资源" }]}
            >
              <Checkbox.Group options={(choices.data ?? []).map((o) => ({ value: o, label: resourceLabel(o) }))} />
            </Form.Item>
            <Form.Item name="expiresAt" label="到期日期（最长一年）" rules={[{ required: true, message: "请选择到期日期" }]}>
              <DatePicker
                disabledDate={(d) => d.isBefore(bj(), "day") || d.isAfter(bj().add(TOKEN_MAX_DAYS - 1, "day"), "day")}
              />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </Card>
  );
}
