/** /test (hidden, root): the deployment's health — version, database and migrations, mail, storage, queue, processes — and a test mail to oneself. */
import { Alert, App, Button, Card, Descriptions, Result, Skeleton, Space, Tag, Typography } from "antd";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { HealthView, TestMailReply } from "../../shared/health/schema";
import { get, post } from "../request";
import { fmtTimeLabelled } from "../format";

export default function TestPage() {
  const { message } = App.useApp();
  const query = useQuery({
    queryKey: ["health"],
    queryFn: async () => {
      const reply = await get<HealthView>("/Backend/Health", undefined, { silent: true });
      if (reply.error !== 0 || !reply.data) throw new Error(reply.info || "加载失败");
      return reply.data;
    },
  });
  const mail = useMutation({
    mutationFn: async () => {
      const reply = await post<TestMailReply>("/Backend/Health/test-mail", undefined, { notify: false });
      if (reply.error !== 0) throw new Error(reply.info);
      return reply;
    },
    onSuccess: (r) => void message.success(r.info),
    onError: (e: Error) => void message.error(e.message),
  });

  if (query.isPending)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (query.isError) return <Result status="error" title="状态加载失败" subTitle={query.error.message} />;
  const h = query.data;
  const db = h.database;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card title="系统状态" extra={<Button onClick={() => void query.refetch()}>刷新</Button>}>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label="版本">
            {h.version}
            {h.commit ? <Tag style={{ marginLeft: 8 }}>{h.commit}</Tag> : null}
          </Descriptions.Item>
          <Descriptions.Item label="Node.js">{h.node}</Descriptions.Item>
          <Descriptions.Item label="启动时间">{fmtTimeLabelled(h.startedAt)}</Descriptions.Item>
          <Descriptions.Item label="运行时长">{Math.floor(h.process.uptimeSeconds / 60)} 分钟</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="数据库">
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label="类型">{db.kind === "postgres" ? "PostgreSQL" : "SQLite（嵌入式）"}</Descriptions.Item>
          <Descriptions.Item label="位置">{db.location}</Descriptions.Item>
          <Descriptions.Item label="最新迁移">{db.latestMigration ?? "无"}</Descriptions.Item>
          <Descriptions.Item label="迁移进度">
            {db.applied} / {db.known}
            {db.pending.length ? (
              <Tag color="orange" style={{ marginLeft: 8 }}>
                待执行 {db.pending.length}
              </Tag>
            ) : (
              <Tag color="green" style={{ marginLeft: 8 }}>
                已是最新
              </Tag>
            )}
          </Descriptions.Item>
        </Descriptions>
        {db.pending.length > 0 && (
          <Alert style={{ marginTop: 12 }} type="warning" showIcon message={`未执行的迁移：${db.pending.join("、")}`} />
        )}
      </Card>
      <Card title="邮件、存储与队列">
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label="邮件方式">
            {h.mail.mode === "smtp" ? (
              <>
                SMTP {h.mail.host}
                {h.mail.port ? `:${h.mail.port}` : ""}
                {h.mail.auth ? "（已配置认证）" : ""}
              </>
            ) : (
              "未配置 SMTP：写入数据目录的 outbox 文件夹"
            )}
          </Descriptions.Item>
          <Descriptions.Item label="发件人">{h.mail.from}</Descriptions.Item>
          <Descriptions.Item label="文件存储">
            {h.storage.driver === "s3"
              ? `S3 存储桶 ${h.storage.bucket}${h.storage.endpoint ? `（${h.storage.endpoint}）` : ""}`
              : "本地磁盘"}
          </Descriptions.Item>
          <Descriptions.Item label="任务队列">{h.queue.driver}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="进程">
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label="进程号">
            {h.process.pid}
            {h.process.clusterWorker ? <Tag style={{ marginLeft: 8 }}>工作进程 #{h.process.workerId}</Tag> : null}
          </Descriptions.Item>
          <Descriptions.Item label="CPU 数 / 内存">
            {h.process.cpus} 核 / {h.process.rssMB} MB
          </Descriptions.Item>
          <Descriptions.Item label="提示" span={2}>
            {h.process.hint}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title="测试邮件">
        <Space direction="vertical">
          <Typography.Text type="secondary">向您自己账号绑定的邮箱发送一封测试邮件（每小时最多 3 封）。</Typography.Text>
          <Button type="primary" loading={mail.isPending} onClick={() => mail.mutate()}>
            发送测试邮件
          </Button>
        </Space>
      </Card>
    </Space>
  );
}
