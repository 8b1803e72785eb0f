/** Root's personal data retention period and what the last purge run did (GET/PUT /Backend/Admin/retention). */
import { useState } from "react";
import { App, Button, Card, Descriptions, InputNumber, Skeleton, Space, Switch, Typography } from "antd";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MAX_RETENTION_DAYS, REPORT_LABELS, type RetentionView } from "../../shared/retention/schema";
import { get, put } from "../request";
import { fmtTimeLabelled } from "../format";

const URL = "/Backend/Admin/retention";
const KEY = ["retention"] as const;
const EXPLAINED =
  "开启后，每天自动清除结束已超过保留期限的赛事（以赛事最后一个阶段的结束时间为准）中的个人联系信息：只参加这些赛事的用户的手机号；其中期限内没有登录等账号活动的用户的邮箱；已结束申诉的申诉人邮箱、手机号和证据文件；访客验证码；只受邀于这些赛事的评委库人员的邮箱和手机号。获奖结果、证书、评分记录和作品本身不会被清除。关闭时不清除任何信息。";

export function RetentionCard() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: KEY,
    queryFn: async () => {
      const r = await get<RetentionView>(URL, undefined, { silent: true });
      if (r.error !== 0 || !r.data) throw new Error(r.info || "加载失败");
      return r.data;
    },
  });
  const [draft, setDraft] = useState<{ on: boolean; days: number | null } | null>(null);
  const save = useMutation({
    mutationFn: async (days: number | null) => {
      const r = await put<RetentionView>(URL, { days }, { notify: false });
      if (r.error !== 0) throw new Error(r.info);
      return r;
    },
    onSuccess: (r) => {
      void message.success(r.info);
      setDraft(null);
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: (e: Error) => void message.error(e.message),
  });

  if (query.isPending)
    return (
      <Card title="个人信息保留期限">
        <Skeleton active paragraph={{ rows: 2 }} />
      </Card>
    );
  if (query.isError) return <Card title="个人信息保留期限">{query.error.message}</Card>;
  const v = query.data;
  const on = draft?.on ?? v.days !== null;
  const days = draft?.days ?? v.days ?? 365;
  const report = v.lastReport;
  return (
    <Card title="个人信息保留期限" data-testid="retention-card">
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {EXPLAINED}
        </Typography.Paragraph>
        <Space wrap>
          <Switch
            checked={on}
            onChange={(checked) => setDraft({ on: checked, days })}
            checkedChildren="自动清除"
            unCheckedChildren="不清除"
            data-testid="retention-switch"
          />
          {/* Plain text, not antd's addons: a disabled field greys its addons to 1.8:1, and this text explains the field. */}
          <span>
            赛事结束后保留{" "}
            <InputNumber
              min={1}
              max={MAX_RETENTION_DAYS}
              precision={0}
              disabled={!on}
              value={days}
              onChange={(n) => setDraft({ on, days: typeof n === "number" ? n : null })}
              aria-label="赛事结束后保留天数"
              data-testid="retention-days"
            />{" "}
            天
          </span>
          <Button
            type="primary"
            loading={save.isPending}
            disabled={on && !days}
            onClick={() => save.mutate(on ? days : null)}
            data-testid="retention-save"
          >
            保存
          </Button>
        </Space>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          <Descriptions.Item label="当前设置">{v.days === null ? "不清除" : `赛事结束 ${v.days} 天后清除`}</Descriptions.Item>
          <Descriptions.Item label="最近一次清除">{v.lastRunAt ? fmtTimeLabelled(v.lastRunAt) : "尚未运行"}</Descriptions.Item>
          {report && (
            <Descriptions.Item label="清除内容" span={2}>
              {(Object.keys(REPORT_LABELS) as (keyof typeof REPORT_LABELS)[])
                .map((k) => `${REPORT_LABELS[k]} ${report[k]}`)
                .join("；")}
              （清除截止 {fmtTimeLabelled(report.cutoff)} 之前结束的赛事）
            </Descriptions.Item>
          )}
        </Descriptions>
      </Space>
    </Card>
  );
}
