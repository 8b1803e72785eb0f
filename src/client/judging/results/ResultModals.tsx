/**
 * The confirmation dialogs of the results actions (ActionBar.tsx): 计算成绩 (with the
 * disagreement threshold), 按比例分配奖项, 推荐晋级 (lowest award) and 发布结果 (a note;
 * confirming when scores are incomplete). Each keeps its own inputs while the screen is open.
 */
import { useState } from "react";
import { Alert, Checkbox, Descriptions, Form, Input, InputNumber, Modal, Select, Typography, type ButtonProps } from "antd";
import type { ResultsOverview } from "../../../shared/judging/result-schema";
import { zeroQuotaWarnings } from "../../../shared/judging/award-quota";
import { resultsApi } from "./api";

export interface ModalProps {
  contestId: number;
  overview: ResultsOverview;
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  /** Runs the action; closes the dialog and refreshes when it succeeds. */
  run: (action: () => Promise<{ error: number }>) => unknown;
}

/** 计算成绩, with the disagreement threshold. */
export function ComputeModal({ contestId, overview: o, open, busy, onCancel, run }: ModalProps) {
  const [threshold, setThreshold] = useState<number>(o.disagreementThreshold);
  return (
    <Modal
      title="计算成绩"
      open={open}
      okText="计算"
      cancelText="取消"
      confirmLoading={busy}
      onCancel={onCancel}
      onOk={() => run(() => resultsApi.compute(contestId, { disagreementThreshold: threshold }))}
      okButtonProps={{ "data-testid": "result-compute-ok" } as ButtonProps}
    >
      <Typography.Paragraph>
        按评审组（未分组的作品按大类）把已提交的网评评分做评委效应标准化：用最小二乘拟合“作品成绩 +
        评委宽严”的加性模型，偏严或偏松的评委得到校正；原始平均分同时保留。评委评分的最高分与最低分相差超过阈值的作品标为分歧。
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        手动设置的奖项会保留；如果排名有变化，自动分配的奖项和晋级标记会被清除，需要重新分配。
      </Typography.Paragraph>
      <Form layout="inline">
        <Form.Item label="分歧阈值（分差）">
          <InputNumber
            min={0}
            max={100}
            step={1}
            value={threshold}
            onChange={(v) => setThreshold(v ?? o.disagreementThreshold)}
            addonAfter="分"
            data-testid="result-threshold"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 按比例分配奖项: the rules of each award, and whether incomplete works take part. */
export function AllocateModal({ contestId, overview: o, open, busy, onCancel, run }: ModalProps) {
  const [includeIncomplete, setIncludeIncomplete] = useState(false);
  const rules = o.awardLevels.filter((l) => l.ratio !== null || l.maxCount !== null);
  const manualOnly = o.awardLevels.filter((l) => l.ratio === null && l.maxCount === null);
  // The works each group's allocation counts (the server's rule: online-ranked groups count their
  // complete works unless the incomplete ones are included).
  const zeroWarnings = zeroQuotaWarnings(
    o.groups.map((g) => ({ name: g.name, works: g.basis === "online" && !includeIncomplete ? g.ranked : g.works })),
    rules,
  );
  return (
    <Modal
      title="按比例分配奖项"
      open={open}
      okText="分配"
      cancelText="取消"
      confirmLoading={busy}
      onCancel={onCancel}
      onOk={() => run(() => resultsApi.allocate(contestId, { includeIncomplete }))}
      okButtonProps={{ "data-testid": "result-allocate-ok" } as ButtonProps}
    >
      <Typography.Paragraph>
        每个结果分组按排名从高到低分配奖项，每个奖项的数量为 ⌊组内作品数 × 比例⌋（设有名额的不超过名额）：
      </Typography.Paragraph>
      <Descriptions size="small" column={1} bordered>
        {rules.map((l) => (
          <Descriptions.Item key={l.id} label={l.name}>
            {[
              l.ratio !== null ? `${Math.round(l.ratio * 1000) / 10}%` : null,
              l.maxCount !== null ? `每组最多 ${l.maxCount} 个` : null,
            ]
              .filter(Boolean)
              .join("，")}
          </Descriptions.Item>
        ))}
      </Descriptions>
      {!rules.length && (
        <Alert
          type="warning"
          showIcon
          message="本级别的作品奖项都没有设置比例或名额，请先在奖项管理中设置，或逐件手动设置奖项。"
        />
      )}
      {zeroWarnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="result-zero-quota"
          message="有的奖项按比例算下来是 0 个"
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {zeroWarnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          }
        />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        成绩并列的作品获同一奖项：并列跨过奖项界线时都获较高的奖项，下一奖项相应减少。手动设置的奖项保留。
        {manualOnly.length ? `${manualOnly.map((l) => l.name).join("、")}未设比例或名额，只能手动设置。` : ""}
      </Typography.Paragraph>
      {o.totals.incomplete > 0 && (
        <Alert
          type="warning"
          showIcon
          message={`有 ${o.totals.incomplete} 件作品的网评评分未完成，默认不参与分配（也不计入组内作品数）`}
          description={
            <Checkbox
              checked={includeIncomplete}
              onChange={(e) => setIncludeIncomplete(e.target.checked)}
              data-testid="result-include-incomplete"
            >
              评分未完成的作品也参与分配（按其现有评分的标准化成绩与其他作品一起排序；发布时记录此选择）
            </Checkbox>
          }
        />
      )}
    </Modal>
  );
}

/** 推荐晋级 within the quota, down to the lowest award chosen. */
export function PromoteModal({ contestId, overview: o, open, busy, onCancel, run }: ModalProps) {
  const [lowest, setLowest] = useState<number | undefined>(undefined);
  return (
    <Modal
      title={`推荐晋级${o.quota.parentName ? `「${o.quota.parentName}」` : ""}`}
      open={open}
      okText="推荐晋级"
      cancelText="取消"
      confirmLoading={busy}
      onCancel={onCancel}
      onOk={() => run(() => resultsApi.promote(contestId, lowest))}
      okButtonProps={{ "data-testid": "result-promote-ok" } as ButtonProps}
    >
      <Typography.Paragraph>
        在本赛事的推荐名额内（共 {o.quota.total ?? "不限"} 个
        {o.quota.categories.some((c) => c.quota !== null) ? "，各大类另有名额" : ""}
        ）按奖项从高到低、同一奖项按组内相对名次标记晋级作品。已有的晋级标记会重新计算。
      </Typography.Paragraph>
      <Form layout="inline">
        <Form.Item label="最低晋级奖项">
          <Select<number>
            allowClear
            placeholder="所有获奖作品"
            style={{ minWidth: 160 }}
            value={lowest}
            onChange={setLowest}
            options={o.awardLevels.map((l) => ({ value: l.id, label: l.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 发布结果 with a note; confirming when scores are incomplete. */
export function PublishModal({ contestId, overview: o, open, busy, onCancel, run }: ModalProps) {
  const [note, setNote] = useState("");
  const [confirmIncomplete, setConfirmIncomplete] = useState(false);
  return (
    <Modal
      title="发布结果"
      open={open}
      okText="发布"
      cancelText="取消"
      confirmLoading={busy}
      onCancel={onCancel}
      onOk={() => run(() => resultsApi.publish(contestId, { note: note.trim() || undefined, confirmIncomplete }))}
      okButtonProps={
        { disabled: o.totals.incomplete > 0 && !confirmIncomplete, "data-testid": "result-publish-ok" } as ButtonProps
      }
    >
      <Typography.Paragraph>
        发布后赛事进入公示期，公众可在「作品查询」中查到作品的奖项；标准化模型、参数、所用评分和评分日志的链头一并保存，可据此复算。发布期间不能修改成绩和奖项，如需更正须撤回发布并填写原因。
      </Typography.Paragraph>
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 12 }}>
        <Descriptions.Item label="作品">{o.totals.works}</Descriptions.Item>
        <Descriptions.Item label="获奖">{o.totals.awarded}</Descriptions.Item>
        {o.quota.parentName && <Descriptions.Item label="晋级">{o.totals.promoted}</Descriptions.Item>}
        <Descriptions.Item label="评委分歧">{o.totals.flagged}</Descriptions.Item>
      </Descriptions>
      {o.totals.incomplete > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={`有 ${o.totals.incomplete} 件作品的网评评分未完成`}
          description={
            <Checkbox
              checked={confirmIncomplete}
              onChange={(e) => setConfirmIncomplete(e.target.checked)}
              data-testid="result-confirm-incomplete"
            >
              评分未完成时仍发布
            </Checkbox>
          }
        />
      )}
      <Input.TextArea
        rows={2}
        maxLength={500}
        placeholder="说明（可选），如：省赛结果公示 7 天"
        aria-label="说明（可选），如：省赛结果公示 7 天"
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
    </Modal>
  );
}
