/**
 * Outcome + action pickers of a decision (also the revised decision of an arbitration, with
 * `prefix`), inside a step form; the new award when the action changes it.
 */
import { Alert, Form, Radio, Select } from "antd";
import {
  DECISION_ACTIONS,
  DECISION_ACTION_NAMES,
  DECISION_OUTCOMES,
  DECISION_OUTCOME_NAMES,
  actionAllowed,
  type DecisionAction,
  type DecisionOutcome,
} from "../../shared/complaint/states";
import type { AwardView } from "../../shared/award/schema";
import { useAwardLevels } from "./api";

/** Outcome + action pickers; a rejected complaint changes nothing. */
export function OutcomeFields({
  prefix = "",
  award,
  level,
}: {
  prefix?: string;
  award: boolean;
  /** the complaint's contest level: the picker offers that level's work awards only */
  level?: AwardView["contestLevel"];
}) {
  const form = Form.useFormInstance();
  const outcomeName = prefix ? `${prefix}Outcome` : "outcome";
  const actionName = prefix ? `${prefix}Action` : "action";
  const outcome: DecisionOutcome | undefined = Form.useWatch(outcomeName, form);
  const action: DecisionAction | undefined = Form.useWatch(actionName, form);
  const awards = useAwardLevels(award && action === "change_award", level);
  return (
    <>
      <Form.Item label="结论" name={outcomeName} rules={[{ required: true, message: "请选择结论" }]}>
        <Radio.Group
          options={DECISION_OUTCOMES.map((o) => ({ value: o, label: DECISION_OUTCOME_NAMES[o] }))}
          onChange={(e) => e.target.value === "rejected" && form.setFieldValue(actionName, "no_change")}
          data-testid={`${prefix || "decision"}-outcome`}
        />
      </Form.Item>
      <Form.Item label="处理" name={actionName} rules={[{ required: true, message: "请选择处理方式" }]}>
        <Radio.Group
          options={DECISION_ACTIONS.map((a) => ({
            value: a,
            label: DECISION_ACTION_NAMES[a],
            disabled: !!outcome && !actionAllowed(outcome, a),
          }))}
          data-testid={`${prefix || "decision"}-action`}
        />
      </Form.Item>
      {award && action === "change_award" && (
        <Form.Item label="新奖项" name="awardLevelId" extra="不选择表示取消奖项">
          <Select
            allowClear
            style={{ width: 240 }}
            loading={awards.isLoading}
            placeholder="无奖项"
            data-testid={`${prefix || "decision"}-award`}
            options={(awards.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          />
        </Form.Item>
      )}
      {award && action === "rejudge" && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="重新评审将由系统选派无回避冲突的新评委（不含该作品以往的全部评委），新的评分将取代原评分。"
        />
      )}
      {award && action === "disqualify" && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="取消作品资格将撤销其奖项，并生成该组结果的新公布版本。"
        />
      )}
    </>
  );
}
