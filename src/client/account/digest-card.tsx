/** /account/security: the daily mail of new to-do items (on by default). */
import { Card, Skeleton, Space, Switch, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { todoApi } from "../todo/todo-api";

export function DigestCard() {
  const query = useQuery({
    queryKey: ["user-center", "digest"],
    queryFn: async () => {
      const r = await todoApi.digest();
      if (r.error !== 0 || !r.data) throw new Error(r.info || "加载失败");
      return r.data;
    },
  });
  const [busy, setBusy] = useState(false);
  const change = async (on: boolean) => {
    setBusy(true);
    const r = await todoApi.setDigest(on);
    setBusy(false);
    if (r.error === 0) void query.refetch();
  };
  return (
    <Card title="邮件提醒" data-testid="digest-card">
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : (
        <Space>
          <Switch
            checked={!!query.data?.todoDigest}
            loading={busy}
            onChange={change}
            aria-label="每日待办邮件"
            data-testid="digest-switch"
          />
          <Typography.Text>每日待办邮件：每天一封，列出自上一封以来新增的待办事项（没有新待办时不发送）</Typography.Text>
        </Space>
      )}
    </Card>
  );
}
