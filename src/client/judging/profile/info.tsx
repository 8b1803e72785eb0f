/**
 * /judge/Info: the judge's profile — name, account, school and province (kept by the
 * admins; they decide the own-school avoidance), the contests and groups the judge is in,
 * the expertise the judge edits, and the declared conflicts (申报回避) with a work or a
 * school or a student: listed, added, withdrawn (./conflicts.tsx).
 */
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Input, Skeleton, Space, Typography } from "antd";
import { SaveOutlined } from "@ant-design/icons";
import type { PageProps } from "../../routing/model";
import { defenceApi, defenceKeys, useJudgeProfile } from "../defence/api";
import { ConflictsEditor } from "./conflicts";

function Expertise({ value }: { value: string | null }) {
  const [text, setText] = useState(value ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const save = async () => {
    setBusy(true);
    setError(null);
    const r = await defenceApi.saveProfile({ expertise: text.trim() || null });
    setBusy(false);
    if (r.error !== 0) return setError(r.info);
    message.success(r.info);
    qc.setQueryData(defenceKeys.profile, r.data);
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Input.TextArea
        rows={3}
        maxLength={500}
        showCount
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="例如：大数据分析、机器学习、Web 系统架构"
        data-testid="expertise"
      />
      {error && <Alert type="error" showIcon message={error} />}
      <Button
        type="primary"
        icon={<SaveOutlined />}
        loading={busy}
        disabled={(value ?? "") === text.trim()}
        onClick={save}
        data-testid="expertise-save"
      >
        保存专业特长
      </Button>
    </Space>
  );
}

export default function JudgeInfo({ route }: PageProps) {
  const q = useJudgeProfile();
  if (q.isLoading)
    return (
      <Card title={route.label}>
        <Skeleton active />
      </Card>
    );
  if (q.error || !q.data)
    return (
      <Card title={route.label}>
        <Alert type="error" showIcon message={q.error?.message ?? "加载失败"} />
      </Card>
    );
  const p = q.data;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="judge-info">
      <Card title={route.label}>
        <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label="姓名">{p.name}</Descriptions.Item>
          <Descriptions.Item label="账号">{p.username}</Descriptions.Item>
          <Descriptions.Item label="所在学校">{p.school?.name ?? "无（行业专家）"}</Descriptions.Item>
          <Descriptions.Item label="所在省份">{p.province ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="邮箱">{p.email ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="手机">{p.phone ?? "—"}</Descriptions.Item>
          <Descriptions.Item label="参加评审" span={2}>
            {p.contests.length ? (
              <Space direction="vertical" size={2}>
                {p.contests.map((c) => (
                  <span key={c.id}>
                    {c.name}
                    {c.groups.length ? `：${c.groups.join("、")}` : "（未分组）"}
                  </span>
                ))}
              </Space>
            ) : (
              "暂无"
            )}
          </Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          学校、姓名和联系方式由管理员维护；邮箱和密码可在“账号安全”中修改。
        </Typography.Paragraph>
      </Card>
      <Card title="专业特长" size="small">
        <Expertise value={p.expertise} />
      </Card>
      <Card title="申报回避" size="small">
        <ConflictsEditor />
      </Card>
    </Space>
  );
}
