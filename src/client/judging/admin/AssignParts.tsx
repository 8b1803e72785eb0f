/**
 * Manual assignment pieces: a work's judges as tags (removing one asks first), the modal
 * that assigns one more judge to a work (the judges of its group first; the server checks
 * conflicts, group, capacity and N the same way as the automatic assignment and answers
 * every problem), and the list of a refusal's problems.
 */
import { useEffect, useState } from "react";
import { Alert, Modal, Popconfirm, Select, Space, Tag, Typography } from "antd";
import type { ContestJudge, PoolWork } from "../../../shared/judging/schema";
import { judgingApi, problemsOf, type Problem } from "./api";
import { judgeLabel } from "./GroupFormModal";

export function ProblemList({ info, problems }: { info?: string; problems: Problem[] }) {
  if (!info && !problems.length) return null;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="problems"
      message={info ?? "操作未完成"}
      description={
        problems.length > 1 ? (
          <ul style={{ margin: 0, paddingInlineStart: 18 }}>
            {problems.map((p, i) => (
              <li key={i}>{p.message}</li>
            ))}
          </ul>
        ) : undefined
      }
    />
  );
}

/** A work's judges; the × removes an assignment after a confirmation. */
export function JudgeTags({ judges, onRemoved }: { judges: PoolWork["judges"]; onRemoved: () => void }) {
  return (
    <Space size={[4, 4]} wrap>
      {judges.map((j) => (
        <Popconfirm
          key={j.assignmentId}
          title={`移除评委「${j.name}」的这条分配？`}
          okText="移除"
          okButtonProps={{ danger: true }}
          cancelText="取消"
          onConfirm={async () => (await judgingApi.removeAssignment(j.assignmentId)).error === 0 && onRemoved()}
        >
          <Tag closable onClose={(e) => e.preventDefault()} style={{ cursor: "pointer" }} data-testid="assigned-judge">
            {j.name}
          </Tag>
        </Popconfirm>
      ))}
    </Space>
  );
}

export function AssignJudgeModal({
  contestId,
  work,
  judges,
  groupJudgeIds,
  onClose,
  onDone,
}: {
  contestId: number;
  work: PoolWork | null;
  judges: ContestJudge[];
  groupJudgeIds: number[] | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [judgeId, setJudgeId] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ info: string; problems: Problem[] } | null>(null);
  useEffect(() => {
    setJudgeId(undefined);
    setRefusal(null);
  }, [work]);
  const taken = new Set(work?.judges.map((j) => j.judgeId));
  // Judges who must not judge the work (回避) stay listed, disabled, with the reason.
  const conflicted = new Map(work?.conflicts.map((x) => [x.judgeId, x.reasons]));
  const option = (j: ContestJudge, text: string) => {
    const why = conflicted.get(j.id);
    return { value: j.id, label: why ? `${judgeLabel(j)}（回避：${why}）` : text, disabled: !!why };
  };
  const candidates = judges.filter((j) => !taken.has(j.id));
  const inGroup = candidates.filter((j) => !groupJudgeIds || groupJudgeIds.includes(j.id));
  const others = candidates.filter((j) => groupJudgeIds && !groupJudgeIds.includes(j.id));
  const submit = async () => {
    if (!work || !judgeId) return;
    setBusy(true);
    const reply = await judgingApi.assign(contestId, work.id, judgeId);
    setBusy(false);
    if (reply.error === 0) {
      onDone();
      onClose();
    } else setRefusal({ info: reply.info, problems: problemsOf(reply.data) });
  };
  return (
    <Modal
      open={!!work}
      title={`为作品 ${work?.id ?? ""}《${work?.name ?? ""}》添加评委`}
      okText="分配"
      cancelText="取消"
      okButtonProps={{ disabled: !judgeId }}
      confirmLoading={busy}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        已有 {work?.judges.length ?? 0} 位评委，需要 {work?.needed ?? 0} 位。
        {work?.judgeGroup ? `作品在「${work.judgeGroup.name}」，只能分配本组评委。` : "作品尚未分入评审组，请先分组。"}
        与作品有回避关系（本校、指导的作品、申报的回避）的评委不能选择；系统还会检查评委容量。
      </Typography.Paragraph>
      <Select
        showSearch
        optionFilterProp="label"
        style={{ width: "100%" }}
        placeholder="搜索评委姓名、用户名或学校"
        aria-label="搜索评委姓名、用户名或学校"
        value={judgeId}
        onChange={(v) => {
          setJudgeId(v);
          setRefusal(null);
        }}
        options={[
          {
            label: work?.judgeGroup ? `「${work.judgeGroup.name}」的评委` : "本赛事的评委",
            options: inGroup.map((j) => option(j, `${judgeLabel(j)}（已分配 ${j.load} 件）`)),
          },
          ...(others.length
            ? [
                {
                  label: "其他评委（不在本组，分配会被拒绝）",
                  options: others.map((j) => option(j, judgeLabel(j))),
                },
              ]
            : []),
        ]}
        data-testid="assign-judge-select"
      />
      {refusal && (
        <div style={{ marginTop: 12 }}>
          <ProblemList info={refusal.info} problems={refusal.problems} />
        </div>
      )}
    </Modal>
  );
}
