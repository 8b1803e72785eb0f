/**
 * /contest-admin/check-group-setting (contest admins): the check report of a contest's
 * judging setting — every assignment that breaks a conflict rule with its reasons,
 * assignments outside the setting, the load of each judge and group, works with too few
 * judges, judges and works without a group — each fixable from here: remove or replace a
 * conflicting assignment, fill the missing judges with the automatic assignment, put the
 * ungrouped works in groups. The report's sections are in check-sections.tsx.
 */
import { useState } from "react";
import { Link } from "react-router";
import { Alert, Button, Card, Modal, Result, Select, Skeleton, Space, Typography } from "antd";
import { SettingOutlined } from "@ant-design/icons";
import type { CheckReport } from "../../../shared/judging/schema";
import type { PageProps } from "../../routing/model";
import { judgingApi, problemsOf, useCheck, useContestJudges, useJudgingRefresh, type Problem } from "./api";
import { ProblemList } from "./AssignParts";
import { CheckFigures, CheckVerdict, ConflictsCard, LoadsRow, MisplacedCard, ShortWorksCard } from "./check-sections";
import { AutoAssignModal } from "./AutoAssignModal";
import { ContestBar, useChosenContest } from "./ContestBar";
import { judgeLabel } from "./GroupFormModal";

type Conflict = CheckReport["conflicts"][number];

export default function CheckGroupSetting({ route }: PageProps) {
  const state = useChosenContest();
  const { contestId } = state;
  return (
    <Card
      title={route.label}
      extra={
        contestId && (
          <Link to={`/ContestAdmin/Group?contestId=${contestId}`}>
            <Button icon={<SettingOutlined />}>设置分组</Button>
          </Link>
        )
      }
    >
      <ContestBar state={state} />
      {contestId && <Report key={contestId} contestId={contestId} />}
    </Card>
  );
}

function Report({ contestId }: { contestId: number }) {
  const check = useCheck(contestId);
  const refresh = useJudgingRefresh(contestId);
  const [fill, setFill] = useState<number[] | null>(null);
  const [replacing, setReplacing] = useState<Conflict | null>(null);
  const [grouping, setGrouping] = useState(false);
  if (check.isLoading) return <Skeleton active />;
  if (check.isError || !check.data) return <Alert type="error" showIcon message={check.error?.message ?? "检查报告加载失败"} />;
  const r = check.data;
  const remove = async (id: number) => (await judgingApi.removeAssignment(id)).error === 0 && refresh();
  const autoGroup = async () => {
    setGrouping(true);
    const reply = await judgingApi.autoGroup(contestId);
    setGrouping(false);
    if (reply.error === 0) refresh();
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="check-report">
      <CheckVerdict r={r} onRecheck={() => void check.refetch()} />
      <CheckFigures r={r} />
      <ConflictsCard r={r} onReplace={setReplacing} onRemove={remove} />
      {r.misplaced.length > 0 && <MisplacedCard r={r} onRemove={remove} />}
      <ShortWorksCard r={r} onFill={setFill} />
      <LoadsRow r={r} contestId={contestId} grouping={grouping} onAutoGroup={autoGroup} />
      {!r.judgeLoads.length && !r.groupLoads.length && (
        <Result
          status="info"
          title="还没有评审组和评委"
          extra={
            <Link to={`/ContestAdmin/Group?contestId=${contestId}`}>
              <Button type="primary">去设置分组</Button>
            </Link>
          }
        />
      )}
      <AutoAssignModal contestId={contestId} open={!!fill} workIds={fill ?? undefined} onClose={() => setFill(null)} />
      <ReplaceModal contestId={contestId} conflict={replacing} onClose={() => setReplacing(null)} onDone={refresh} />
    </Space>
  );
}

function ReplaceModal({
  contestId,
  conflict,
  onClose,
  onDone,
}: {
  contestId: number;
  conflict: Conflict | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const judges = useContestJudges(contestId);
  const [judgeId, setJudgeId] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ info: string; problems: Problem[] } | null>(null);
  const submit = async () => {
    if (!conflict || !judgeId) return;
    setBusy(true);
    const reply = await judgingApi.replace(conflict.assignmentId, judgeId);
    setBusy(false);
    if (reply.error === 0) {
      setJudgeId(undefined);
      setRefusal(null);
      onDone();
      onClose();
    } else setRefusal({ info: reply.info, problems: problemsOf(reply.data) });
  };
  return (
    <Modal
      open={!!conflict}
      title={conflict ? `替换作品 ${conflict.workId}《${conflict.workName}》的评委「${conflict.judgeName}」` : ""}
      okText="替换"
      cancelText="取消"
      okButtonProps={{ disabled: !judgeId }}
      confirmLoading={busy}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">新评委同样检查回避、评审组和容量；不通过时原分配保留。</Typography.Paragraph>
      <Select
        showSearch
        optionFilterProp="label"
        style={{ width: "100%" }}
        placeholder="选择新评委"
        aria-label="选择新评委"
        value={judgeId}
        onChange={(v) => {
          setJudgeId(v);
          setRefusal(null);
        }}
        options={(judges.data ?? [])
          .filter((j) => j.id !== conflict?.judgeId)
          .map((j) => ({ value: j.id, label: `${judgeLabel(j)}（已分配 ${j.load} 件）` }))}
      />
      {refusal && (
        <div style={{ marginTop: 12 }}>
          <ProblemList info={refusal.info} problems={refusal.problems} />
        </div>
      )}
    </Modal>
  );
}
