/**
 * The actions of the results screen, each behind a confirmation: 计算成绩 (with the
 * disagreement threshold), 按比例分配奖项, 推荐晋级 (within the quota), 发布结果 (with a note;
 * confirming when scores are incomplete) — and the publication bar with 撤回发布 (a reason).
 * The dialogs are in ResultModals.tsx.
 */
import { useState } from "react";
import { Alert, App, Button, Input, Modal, Space, Typography } from "antd";
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
import { AllocateModal, ComputeModal, PromoteModal, PublishModal } from "./ResultModals";
import { fmtTimeLabelled } from "../../format";

type Open = null | "compute" | "allocate" | "promote" | "publish";

export function ActionBar({ contestId, overview: o }: { contestId: number; overview: ResultsOverview }) {
  const refresh = useResultsRefresh(contestId);
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const published = !!o.published;
  const computed = !!o.computedAt && o.groups.length > 0;

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
        {/* The national contest (no higher contest) has no promotion: no button. */}
        {o.quota.parentName && (
          <Button
            icon={<RiseOutlined />}
            disabled={published || !computed}
            title={why}
            onClick={() => setOpen("promote")}
            data-testid="result-promote"
          >
            推荐晋级
          </Button>
        )}
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

      <ComputeModal
        open={open === "compute"}
        contestId={contestId}
        overview={o}
        busy={busy}
        onCancel={() => setOpen(null)}
        run={run}
      />
      <AllocateModal
        open={open === "allocate"}
        contestId={contestId}
        overview={o}
        busy={busy}
        onCancel={() => setOpen(null)}
        run={run}
      />
      <PromoteModal
        open={open === "promote"}
        contestId={contestId}
        overview={o}
        busy={busy}
        onCancel={() => setOpen(null)}
        run={run}
      />
      <PublishModal
        open={open === "publish"}
        contestId={contestId}
        overview={o}
        busy={busy}
        onCancel={() => setOpen(null)}
        run={run}
      />
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
          aria-label="撤回原因（必填）"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          data-testid="result-unpublish-reason"
        />
      </Modal>
    </>
  );
}
