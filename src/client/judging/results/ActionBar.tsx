/**
 * The actions of the results screen, each behind a confirmation: 计算成绩 (with the
 * disagreement threshold), 按比例分配奖项, 推荐晋级 (within the quota), 发布结果 (with a note;
 * confirming when scores are incomplete) — and the publication bar with 撤回发布 (a reason).
 */
import { useState } from "react";
import {
  Alert,
  App,
  Button,
  Checkbox,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Typography,
  type ButtonProps,
} from "antd";
import { Link } from "react-router";
import {
  BarChartOutlined,
  CalculatorOutlined,
  CloudUploadOutlined,
  RiseOutlined,
  TrophyOutlined,
  UndoOutlined,
} from "@ant-design/icons";
import type { ResultsOverview } from "../../../shared/judging/result-schema";
import { resultsApi, useResultsRefresh } from "./api";
import { fmtTimeLabelled } from "../../format";

type Open = null | "compute" | "allocate" | "promote" | "publish";

export function ActionBar({ contestId, overview: o }: { contestId: number; overview: ResultsOverview }) {
  const refresh = useResultsRefresh(contestId);
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const [threshold, setThreshold] = useState<number>(o.disagreementThreshold);
  const [lowest, setLowest] = useState<number | undefined>(undefined);
  const [note, setNote] = useState("");
  const [confirmIncomplete, setConfirmIncomplete] = useState(false);
  const [includeIncomplete, setIncludeIncomplete] = useState(false);
  const published = !!o.published;
  const computed = !!o.computedAt && o.groups.length > 0;
  const rules = o.awardLevels.filter((l) => l.ratio !== null || l.maxCount !== null);
  const manualOnly = o.awardLevels.filter((l) => l.ratio === null && l.maxCount === null);

  const run = async (action: () => Promise<{ error: number }>) => {
    setBusy(true);
    const reply = await action();
    setBusy(false);
    if (reply.error === 0) {
      setOpen(null);
      refresh();
    }
  };
  const why = published ? "结果已发布，撤回发布后才能修改" : undefined;

  return (
    <>
      <Space wrap>
        <Button
          icon={<CalculatorOutlined />}
          disabled={published}
          title={why}
          onClick={() => setOpen("compute")}
          data-testid="result-compute"
        >
          计算成绩
        </Button>
        <Button
          icon={<TrophyOutlined />}
          disabled={published || !computed}
          title={why}
          onClick={() => setOpen("allocate")}
          data-testid="result-allocate"
        >
          按比例分配奖项
        </Button>
        <Button
          icon={<RiseOutlined />}
          disabled={published || !computed || !o.quota.parentName}
          title={why ?? (!o.quota.parentName ? "国赛没有上级赛事" : undefined)}
          onClick={() => setOpen("promote")}
          data-testid="result-promote"
        >
          推荐晋级
        </Button>
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          disabled={published || !computed}
          title={why}
          onClick={() => setOpen("publish")}
          data-testid="result-publish"
        >
          发布结果
        </Button>
        <Link to={`/ContestAdmin/OnlineJudging/${contestId}`}>
          <Button icon={<BarChartOutlined />} data-testid="result-scoring-progress">
            网评进度
          </Button>
        </Link>
      </Space>

      <Modal
        title="计算成绩"
        open={open === "compute"}
        okText="计算"
        cancelText="取消"
        confirmLoading={busy}
        onCancel={() => setOpen(null)}
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

      <Modal
        title="按比例分配奖项"
        open={open === "allocate"}
        okText="分配"
        cancelText="取消"
        confirmLoading={busy}
        onCancel={() => setOpen(null)}
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

      <Modal
        title={`推荐晋级${o.quota.parentName ? `「${o.quota.parentName}」` : ""}`}
        open={open === "promote"}
        okText="推荐晋级"
        cancelText="取消"
        confirmLoading={busy}
        onCancel={() => setOpen(null)}
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

      <Modal
        title="发布结果"
        open={open === "publish"}
        okText="发布"
        cancelText="取消"
        confirmLoading={busy}
        onCancel={() => setOpen(null)}
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
          <Descriptions.Item label="晋级">{o.totals.promoted}</Descriptions.Item>
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
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </Modal>
    </>
  );
}

export function PublicationBar({ contestId, overview: o }: { contestId: number; overview: ResultsOverview }) {
  const refresh = useResultsRefresh(contestId);
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const p = o.published;
  const last = o.history.find((h) => h.withdrawnAt);
  const withdraw = async () => {
    if (reason.trim().length < 2) {
      void message.error("请填写撤回发布的原因");
      return;
    }
    setBusy(true);
    const reply = await resultsApi.unpublish(contestId, reason.trim());
    setBusy(false);
    if (reply.error === 0) {
      setOpen(false);
      setReason("");
      refresh();
    }
  };
  if (!p && !last) return null;
  return (
    <>
      {p ? (
        <Alert
          type="success"
          showIcon
          data-testid="result-published"
          message={`结果已于 ${fmtTimeLabelled(p.publishedAt)} 由 ${p.publishedBy} 发布，公示期已开始`}
          description={
            <Typography.Text type="secondary">
              模型 {p.model}（第 {p.modelVersion} 版）；评分日志第 {p.logSeq} 条，链头{" "}
              <Typography.Text code copyable={{ text: p.logHead }}>
                {p.logHead.slice(0, 16)}…
              </Typography.Text>
              {p.note ? `；${p.note}` : ""}
            </Typography.Text>
          }
          action={
            <Button danger icon={<UndoOutlined />} onClick={() => setOpen(true)} data-testid="result-unpublish">
              撤回发布
            </Button>
          }
        />
      ) : (
        last && (
          <Alert
            type="warning"
            showIcon
            message={`上次发布已于 ${fmtTimeLabelled(last.withdrawnAt)} 由 ${last.withdrawnBy ?? ""} 撤回：${last.withdrawReason ?? ""}`}
          />
        )
      )}
      <Modal
        title="撤回发布"
        open={open}
        okText="撤回发布"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        confirmLoading={busy}
        onCancel={() => setOpen(false)}
        onOk={withdraw}
      >
        <Typography.Paragraph>
          撤回后公众查询不再显示奖项，可重新计算成绩和分配奖项后再次发布。发布记录和撤回原因都会保留。
        </Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={500}
          placeholder="撤回原因（必填）"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="result-unpublish-reason"
        />
      </Modal>
    </>
  );
}
