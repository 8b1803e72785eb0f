/** One row per contest stage (src/shared/contest/stages.ts) with a date-time range; empty rows are not set. */
import { DatePicker, Form, Typography } from "antd";
import { STAGE_NAMES, type StageKey } from "../../shared/contest/stages";

export function StagesField({ disabled }: { disabled?: boolean }) {
  return (
    <Form.List name="stages">
      {(fields) => (
        <div data-testid="contest-stages">
          {fields.map((f) => (
            <Form.Item key={f.key} noStyle shouldUpdate>
              {({ getFieldValue }) => {
                const stage = getFieldValue(["stages", f.name, "stage"]) as StageKey;
                return (
                  <Form.Item
                    label={STAGE_NAMES[stage]}
                    name={[f.name, "range"]}
                    layout="horizontal"
                    labelCol={{ flex: "84px" }}
                    style={{ marginBottom: 8 }}
                    rules={[
                      {
                        validator: (_, v: unknown[] | null | undefined) =>
                          !v || (v[0] && v[1]) ? Promise.resolve() : Promise.reject(new Error("请同时填写开始和结束时间")),
                      },
                    ]}
                  >
                    <DatePicker.RangePicker
                      showTime={{ format: "HH:mm" }}
                      format="YYYY-MM-DD HH:mm"
                      allowEmpty={[true, true]}
                      disabled={disabled}
                      placeholder={["开始时间", "结束时间"]}
                      style={{ width: "100%" }}
                    />
                  </Form.Item>
                );
              }}
            </Form.Item>
          ))}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            不填写的阶段不开放。
          </Typography.Text>
        </div>
      )}
    </Form.List>
  );
}
