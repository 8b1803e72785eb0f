/**
 * The contest's judging settings: reviews per work (N, default 3), the most works per
 * judge (empty: no limit) and, for the national contest, no works of the judge's own
 * province. Saved with PUT …/settings; the automatic assignment uses them.
 */
import { useEffect, useState } from "react";
import { Button, Form, InputNumber, Skeleton, Switch, Tooltip } from "antd";
import { MAX_REVIEWS_PER_WORK, type JudgingSettings } from "../../../shared/judging/schema";
import { judgingApi, useJudgingRefresh, useSettings } from "./api";

export function SettingsCard({ contestId }: { contestId: number }) {
  const settings = useSettings(contestId);
  const refresh = useJudgingRefresh(contestId);
  const [form] = Form.useForm<JudgingSettings>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  if (settings.isLoading) return <Skeleton active paragraph={{ rows: 1 }} />;
  const save = async (v: JudgingSettings) => {
    setBusy(true);
    const reply = await judgingApi.saveSettings(contestId, {
      reviewsPerWork: v.reviewsPerWork,
      judgeCapacity: v.judgeCapacity ?? null,
      avoidProvince: !!v.avoidProvince,
    });
    setBusy(false);
    if (reply.error === 0) refresh();
  };
  return (
    <Form form={form} layout="inline" onFinish={save} style={{ rowGap: 8 }} data-testid="judging-settings">
      <Form.Item
        name="reviewsPerWork"
        label="每件作品评审次数"
        rules={[{ required: true, message: "请填写评审次数" }]}
        tooltip="每件作品由几位评委独立评审（默认 3）"
      >
        <InputNumber min={1} max={MAX_REVIEWS_PER_WORK} style={{ width: 80 }} data-testid="settings-n" />
      </Form.Item>
      <Form.Item name="judgeCapacity" label="每位评委最多作品数" tooltip="留空表示不限">
        <InputNumber min={1} max={100000} placeholder="不限" style={{ width: 100 }} />
      </Form.Item>
      <Form.Item name="avoidProvince" label="回避本省作品" valuePropName="checked" tooltip="国赛选项：评委不评审本省学校的作品">
        <Switch />
      </Form.Item>
      <Form.Item>
        <Tooltip title="自动分配时按这些设置分配评委">
          <Button htmlType="submit" loading={busy}>
            保存设置
          </Button>
        </Tooltip>
      </Form.Item>
    </Form>
  );
}
