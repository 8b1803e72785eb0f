/** The award level form: the ratio is stored as a share (0.1) and edited as a percentage (10). */
import type { useModalForm } from "@refinedev/antd";
import { Form, Input, InputNumber, Modal, Select, Space, Switch } from "antd";
import { AWARD_KIND_LABELS, CONTEST_LEVEL_LABELS, type AwardView } from "../../shared/award/schema";

/** 0.1 → "10%" */
export const formatRatio = (r: number) => `${Math.round(r * 10000) / 100}%`;

const LEVEL_OPTIONS = Object.entries(CONTEST_LEVEL_LABELS).map(([value, label]) => ({ value, label }));
const KIND_OPTIONS = Object.entries(AWARD_KIND_LABELS).map(([value, label]) => ({ value, label }));

export function AwardFormModal({
  title,
  modal,
  editing,
}: {
  title: string;
  modal: ReturnType<typeof useModalForm<AwardView>>;
  editing?: boolean;
}) {
  return (
    <Modal {...modal.modalProps} width={640} title={title} okText="保存" destroyOnHidden>
      {/* A refused save shows on the form (and as a notification); it is not an unhandled error. */}
      <Form
        {...modal.formProps}
        layout="vertical"
        onFinish={async (v) => {
          try {
            await modal.formProps.onFinish?.(v);
          } catch {
            /* shown on the form */
          }
        }}
      >
        <Space size="middle" style={{ display: "flex" }} align="start">
          <Form.Item
            name="contestLevel"
            label="赛事级别"
            rules={[{ required: true, message: "请选择赛事级别" }]}
            style={{ width: 140 }}
          >
            <Select options={LEVEL_OPTIONS} />
          </Form.Item>
          <Form.Item name="kind" label="奖项类别" rules={[{ required: true, message: "请选择奖项类别" }]} style={{ width: 140 }}>
            <Select options={KIND_OPTIONS} />
          </Form.Item>
        </Space>
        <Form.Item
          name="name"
          label="奖项名称"
          rules={[
            { required: true, whitespace: true, message: "请输入奖项名称" },
            { max: 20, message: "奖项名称不能超过 20 个字" },
          ]}
        >
          <Input placeholder="如 一等奖、优秀指导教师" data-testid="award-name" />
        </Form.Item>
        <Space size="middle" style={{ display: "flex" }} align="start">
          <Form.Item
            name="ratio"
            label="比例上限"
            extra="获奖作品占参赛作品的比例；留空为不限"
            getValueProps={(v: number | null | undefined) => ({
              value: v === null || v === undefined ? null : Math.round(v * 10000) / 100,
            })}
            normalize={(v: number | null) => (v === null || v === undefined ? null : Math.round(v * 10000) / 1e6)}
            style={{ width: 220 }}
          >
            <InputNumber
              min={0}
              max={100}
              step={1}
              precision={2}
              addonAfter="%"
              style={{ width: "100%" }}
              data-testid="award-ratio"
            />
          </Form.Item>
          <Form.Item
            name="maxCount"
            label="数量上限"
            extra="留空为不限"
            normalize={(v: number | null) => v ?? null}
            style={{ width: 160 }}
          >
            <InputNumber min={1} max={100000} precision={0} addonAfter="个" style={{ width: "100%" }} />
          </Form.Item>
          <Form.Item name="sort" label="排序" extra={editing ? undefined : "留空排在最后"} style={{ width: 100 }}>
            <InputNumber min={0} max={9999} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Space>
        {editing && (
          <Form.Item name="archived" label="已归档" valuePropName="checked" extra="归档的奖项不计入比例合计">
            <Switch />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
