/**
 * /judge/offline-group-result?session=<id> (no layout, printable): the group leader's
 * consolidated sheet of the defence — per work every member's score and recommendation,
 * the mean, the count of each recommendation, the rank and who has not scored yet — and
 * the sign-off. Missing scores are listed; signing anyway needs the leader's confirmation
 * and a note (e.g. a member was absent). After the sign-off the sheet is final and
 * read-only; it prints on A4 landscape with the signature line.
 */
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Checkbox, Form, Input, Result, Skeleton, Space, Table, Tag, Typography } from "antd";
import type { TableColumnsType } from "antd";
import { CheckOutlined, PrinterOutlined, ReloadOutlined } from "@ant-design/icons";
import type { GroupSheet, SheetRow } from "../../../shared/judging/defence-schema";
import type { PageProps } from "../../routing/model";
import { useJudgeContests } from "../scoring/api";
import { defenceApi, defenceKeys, timeText, useMySessions, useSheet } from "./api";
import { DrawText, RecommendationTag, StatusTag } from "./SessionInfo";
import "./defence.css";

function SignOffForm({ sheet }: { sheet: GroupSheet }) {
  const [note, setNote] = useState("");
  const [confirmMissing, setConfirmMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const missing = sheet.rows.reduce((a, r) => a + r.missing.length, 0) + sheet.hidden.missingScores;

  const submit = () =>
    modal.confirm({
      title: "签署本组答辩结果？",
      content: missing
        ? `尚有 ${missing} 份评分未录入，签署后本组全部评分将不能再修改。`
        : "签署后本组全部评分将不能再修改，如需更改须由赛事管理员重新开放。",
      okText: "确认签署",
      cancelText: "取消",
      onOk: async () => {
        setBusy(true);
        setError(null);
        const r = await defenceApi.signOff(sheet.id, {
          note: note.trim() || undefined,
          confirmMissing: missing ? confirmMissing : undefined,
        });
        setBusy(false);
        if (r.error !== 0) return void setError(r.info);
        message.success(r.info);
        qc.setQueryData(defenceKeys.sheet(sheet.id), r.data);
      },
    });

  return (
    <Card size="small" title="专家组长签署" className="no-print" data-testid="sign-off">
      <Space direction="vertical" style={{ width: "100%" }}>
        {missing > 0 ? (
          <Alert
            type="warning"
            showIcon
            message={`尚有 ${missing} 份评分未录入`}
            description="请等待评委评完后再签署；如有评委缺席，请勾选下方的确认并在说明中写明原因。"
          />
        ) : (
          <Alert type="success" showIcon message="全部评委已评完，可以签署" />
        )}
        <Form layout="vertical">
          <Form.Item
            label="签署说明"
            required={missing > 0}
            help={missing > 0 ? "有缺评时必须填写，例如“某评委因故缺席下午场”" : undefined}
          >
            <Input.TextArea
              rows={3}
              maxLength={1000}
              showCount
              value={note}
              onChange={(e) => setNote(e.target.value)}
              data-testid="sign-note"
            />
          </Form.Item>
          {missing > 0 && (
            <Form.Item>
              <Checkbox
                checked={confirmMissing}
                onChange={(e) => setConfirmMissing(e.target.checked)}
                data-testid="confirm-missing"
              >
                有评委缺席，确认在缺评的情况下签署
              </Checkbox>
            </Form.Item>
          )}
        </Form>
        {error && <Alert type="error" showIcon message={error} data-testid="sign-error" />}
        <Button
          type="primary"
          icon={<CheckOutlined />}
          loading={busy}
          disabled={missing > 0 && (!confirmMissing || !note.trim())}
          onClick={submit}
          data-testid="sign-button"
        >
          签署本组结果
        </Button>
      </Space>
    </Card>
  );
}

/** The sessions of one contest the judge leads, as links to their sheets. */
function LedSessions({ contestId }: { contestId: number }) {
  const q = useMySessions(contestId);
  const led = (q.data ?? []).filter((x) => x.isLeader);
  return (
    <>
      {led.map((x) => (
        <Link key={x.id} to={`/judge/offline-group-result?session=${x.id}`} data-testid={`sheet-link-${x.id}`}>
          <Button block style={{ marginBottom: 8 }}>
            {x.contest.name} · {x.group.name}
          </Button>
        </Link>
      ))}
    </>
  );
}

/** Without ?session: the judge picks one of the groups they lead (the offline page links here too). */
function SessionChooser() {
  const contests = useJudgeContests();
  return (
    <div className="defence-screen">
      <Card className="defence-page" title="现场答辩结果汇总：选择您担任专家组长的评审组">
        {contests.isLoading ? <Skeleton active /> : (contests.data ?? []).map((c) => <LedSessions key={c.id} contestId={c.id} />)}
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          只有专家组长可以汇总并签署本组结果；组员请在<Link to="/judge">评审赛事</Link>中进入线下评审。
        </Typography.Paragraph>
      </Card>
    </div>
  );
}

/** The sheet's columns: order, work, one column per member (score and recommendation, 未评 or 回避), mean, counts, rank. */
function sheetColumns(members: GroupSheet["members"]): TableColumnsType<SheetRow> {
  const scoreOf = (r: SheetRow, judgeId: number) => r.scores.find((x) => x.judge.id === judgeId);
  return [
    { title: "顺序", dataIndex: "position", width: 56, render: (p: number | null) => p ?? "—" },
    { title: "作品编号", width: 110, render: (_, r) => r.work.id },
    { title: "作品名称", render: (_, r) => r.work.name },
    ...members.map((m) => ({
      title: m.name,
      key: `m${m.id}`,
      width: 120,
      render: (_: unknown, r: SheetRow) => {
        const x = scoreOf(r, m.id);
        if (x)
          return (
            <span className="cell-score" title={x.comment}>
              <b>{x.score}</b> <RecommendationTag value={x.recommendation} />
            </span>
          );
        if (r.missing.some((j) => j.id === m.id)) return <Tag color="red">未评</Tag>;
        return <Typography.Text type="secondary">回避</Typography.Text>;
      },
    })),
    {
      title: "平均分",
      width: 80,
      render: (_, r) => (r.mean === null ? "—" : <b data-testid="row-mean">{r.mean.toFixed(2)}</b>),
    },
    { title: "强烈推荐", width: 76, render: (_, r) => r.counts.strong },
    { title: "推荐", width: 56, render: (_, r) => r.counts.recommend },
    { title: "不推荐", width: 64, render: (_, r) => r.counts.not },
    { title: "名次", width: 56, render: (_, r) => r.rank ?? "—" },
  ];
}

export default function GroupSheetPage({ route }: PageProps) {
  const [params] = useSearchParams();
  const id = /^\d+$/.test(params.get("session") ?? "") ? Number(params.get("session")) : 0;
  const q = useSheet(id);

  if (!id) return <SessionChooser />;
  if (q.isLoading)
    return (
      <div className="defence-screen">
        <Card className="defence-page">
          <Skeleton active />
        </Card>
      </div>
    );
  if (q.error || !q.data)
    return (
      <div className="defence-screen">
        <Result status="404" title={q.error?.message ?? "答辩场次不存在"} extra={<Button href="/judge">返回</Button>} />
      </div>
    );
  const s = q.data;
  const members = s.members;

  return (
    <div className="defence-screen">
      <div className="defence-page defence-sheet" data-testid="group-sheet">
        <Space className="no-print" style={{ marginBottom: 12, width: "100%", justifyContent: "space-between" }} wrap>
          <Typography.Text type="secondary">{route.label}</Typography.Text>
          <Space>
            <Button icon={<ReloadOutlined />} onClick={() => void q.refetch()} loading={q.isFetching}>
              刷新
            </Button>
            <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
              打印
            </Button>
          </Space>
        </Space>
        <Card>
          <h1>现场答辩结果汇总表</h1>
          <div className="sheet-sub">
            {s.contest.name} · {s.group.name}
          </div>
          <Space wrap size={[24, 8]} style={{ marginBottom: 12 }}>
            <span>开始时间：{timeText(s.startsAt)}</span>
            <span>地点：{s.place ?? s.meetingLink ?? "—"}</span>
            <span>专家组长：{s.leader?.name ?? "—"}</span>
            <span>
              状态：
              <StatusTag s={s} />
            </span>
          </Space>
          <div style={{ marginBottom: 12 }}>
            答辩顺序：
            <DrawText draw={s.draw} />
          </div>
          {s.hidden.works > 0 && (
            <Alert
              className="no-print"
              style={{ marginBottom: 12 }}
              type="info"
              showIcon
              message={`另有 ${s.hidden.works} 件作品与您存在回避关系，不在此显示${s.hidden.missingScores ? `（其中尚有 ${s.hidden.missingScores} 份评分未录入）` : "（均已评完）"}`}
            />
          )}
          <Table<SheetRow>
            rowKey={(r) => r.work.id}
            dataSource={s.rows}
            pagination={false}
            size="small"
            bordered
            scroll={{ x: "max-content" }}
            data-testid="sheet-table"
            columns={sheetColumns(members)}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            评委评分进度：{members.map((m) => `${m.name} ${m.scored}/${m.expected}`).join("；")}
          </Typography.Paragraph>
          {s.signOff ? (
            <div data-testid="signed">
              <Alert
                type="success"
                showIcon
                className="no-print"
                message={`本组结果已由专家组长 ${s.signOff.by.name} 于 ${timeText(s.signOff.at)} 签署`}
                description={s.signOff.note ?? undefined}
              />
              <div className="sheet-sign">
                <div>签署说明：{s.signOff.note ?? "无"}</div>
                <div>
                  专家组长签字：<span>{s.signOff.by.name}</span>　日期：{timeText(s.signOff.at)}
                </div>
              </div>
            </div>
          ) : (
            <div className="sheet-sign">
              <div />
              <div>
                专家组长签字：
                <span />
                　日期：
                <span />
              </div>
            </div>
          )}
        </Card>
        {s.canSignOff && (
          <div style={{ marginTop: 16 }}>
            <SignOffForm sheet={s} />
          </div>
        )}
        {!s.signOff && !s.canSignOff && !s.draw && (
          <Alert
            className="no-print"
            style={{ marginTop: 16 }}
            type="info"
            showIcon
            message="答辩顺序尚未抽签，抽签并评分后才能签署"
          />
        )}
      </div>
    </div>
  );
}
