/**
 * /reviewer/fastReview/:contestId/startFrom/:startWorkId (root, contest admins, reviewers):
 * one work at a time, driven by the keyboard — P or Enter 通过, R 退回修改, X 不符合要求,
 * U 撤销结论, J or → the next work, K or ← the previous one (the keys are on screen).
 *
 * Never waiting: while the reviewer reads a work, the review sheets of the next and the
 * previous work of the filter and of the next work waiting for review are fetched into
 * the query cache, with their neighbours and duplicate-check matches, so moving on renders
 * at once. The address
 * follows the work shown (a reload resumes there) and the position is saved on the server
 * (GET/PUT …/position; an outcome saves it too), where 快速审核 on the contest list resumes.
 * Filters (status, 大类, keyword) are in the query string; after a decision the next work
 * waiting for review in the same filter is shown.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCan } from "@refinedev/core";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Collapse,
  Empty,
  Input,
  Progress,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import {
  ArrowLeftOutlined,
  CheckOutlined,
  CloseOutlined,
  LeftOutlined,
  RightOutlined,
  RollbackOutlined,
  UndoOutlined,
} from "@ant-design/icons";
import type { OutcomeResult, ReviewFilters, ReviewSheet } from "../../../shared/review/schema";
import { FORMAT_FILTERS, type FormatFilter, type FormatOutcome } from "../../../shared/work/states";
import type { PageProps } from "../../routing/model";
import { useCategoryOptions } from "../../work-type/use-tree";
import {
  cleanFilters,
  fastReviewPath,
  firstWork,
  giveOutcome,
  neighboursQuery,
  reviewDetailPath,
  reviewKeys,
  reviewListPath,
  savePosition,
  sheetQuery,
  useReviewContests,
} from "./api";
import { LABELS } from "./OutcomeButtons";
import { OutcomeModal, type ReasonOutcome } from "./OutcomeModal";
import { STATUS_FILTER_OPTIONS } from "./review-list";
import { Checklist, CurrentDecision, SheetFacts, SheetFields, SheetFiles, SheetHistory } from "./SheetView";
import { SheetDupPanel } from "../../dupcheck/SheetPanel";
import { sheetDupQuery } from "../../dupcheck/api";

const KEYS: { keys: string[]; label: string; outcome?: FormatOutcome; nav?: "next" | "prev" }[] = [
  { keys: ["P", "Enter"], label: "通过", outcome: "format_pass" },
  { keys: ["R"], label: "退回修改", outcome: "format_return" },
  { keys: ["X"], label: "不符合要求", outcome: "format_reject" },
  { keys: ["U"], label: "撤销结论", outcome: "format_reopen" },
  { keys: ["J", "→"], label: "下一件", nav: "next" },
  { keys: ["K", "←"], label: "上一件", nav: "prev" },
];

const Kbd = ({ children }: { children: string }) => (
  <kbd
    style={{
      display: "inline-block",
      minWidth: 22,
      padding: "0 6px",
      border: "1px solid #d9d9d9",
      borderBottomWidth: 2,
      borderRadius: 4,
      background: "#fafafa",
      color: "rgba(0,0,0,0.65)",
      fontFamily: "monospace",
      fontSize: 12,
      lineHeight: "20px",
      textAlign: "center",
    }}
  >
    {children}
  </kbd>
);

/** Keys typed into a field, or pressed with a modifier, are not commands. */
function isCommandTarget(e: KeyboardEvent) {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const el = e.target as HTMLElement | null;
  if (!el) return true;
  if (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName)) return false;
  // Enter on a focused button or link keeps its own meaning.
  if (e.key === "Enter" && (el.tagName === "BUTTON" || el.tagName === "A")) return false;
  return !el.closest(".ant-modal, .ant-select-dropdown, .ant-picker-dropdown");
}

function useFastFilters(): [ReviewFilters, (f: ReviewFilters) => void] {
  const [sp, setSp] = useSearchParams();
  const qs = sp.toString();
  const f = useMemo(() => {
    const q = new URLSearchParams(qs);
    const status = q.get("status");
    return cleanFilters({
      status: status && status in FORMAT_FILTERS ? (status as FormatFilter) : undefined,
      categoryId: Number(q.get("categoryId")) || undefined,
      keyword: q.get("keyword") ?? undefined,
    });
  }, [qs]);
  const set = (next: ReviewFilters) =>
    setSp(new URLSearchParams(Object.entries(cleanFilters(next)).map(([k, v]) => [k, String(v)])), { replace: true });
  return [f, set];
}

export default function FastReview({ route }: PageProps) {
  const params = useParams();
  const contestId = Number(params.contestId);
  const workId = /^\d{10}$/.test(params.startWorkId ?? "") ? Number(params.startWorkId) : 0;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [filters, setFilters] = useFastFilters();
  const pendingFilters = useMemo(() => ({ ...filters, status: "pending" as const }), [filters]);
  const samePending = filters.status === "pending";

  const sheet = useQuery({ ...sheetQuery(workId), enabled: !!workId });
  const nav = useQuery({ ...neighboursQuery(contestId, workId, filters), enabled: !!workId });
  const pendingNav = useQuery({ ...neighboursQuery(contestId, workId, pendingFilters), enabled: !!workId && !samePending });
  const nextPending = (samePending ? nav.data : pendingNav.data)?.next ?? null;
  const contests = useReviewContests();
  const contest = contests.data?.find((c) => c.id === contestId);
  const cats = useCategoryOptions();
  const [modal, setModal] = useState<ReasonOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  // Reviewers go back to the contest's list; contest admins and root (who have no list) to the works.
  const hasList = !!useCan({ resource: "page.review", action: "view" }).data?.can;
  const back = hasList ? { to: reviewListPath(contestId), label: "作品列表" } : { to: "/WorkManagement", label: "作品管理" };

  // Preload: the sheets of the works the reviewer may go to next, and their neighbours.
  const ahead = [...new Set([nav.data?.next, nextPending, nav.data?.prev].filter((x): x is number => !!x && x !== workId))];
  const nextSheet = useQuery({ ...sheetQuery(nav.data?.next ?? 0), enabled: !!nav.data?.next });
  useEffect(() => {
    for (const id of ahead) {
      void qc.prefetchQuery(sheetQuery(id));
      void qc.prefetchQuery(sheetDupQuery(id));
      void qc.prefetchQuery(neighboursQuery(contestId, id, filters));
      if (!samePending) void qc.prefetchQuery(neighboursQuery(contestId, id, pendingFilters));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ahead.join(","), contestId, filters, pendingFilters, samePending, qc]);

  // The address follows the work; the server keeps the position for the contest list.
  useEffect(() => {
    if (workId && contestId) void savePosition(contestId, workId);
  }, [contestId, workId]);

  const go = useCallback(
    (id: number) => {
      setDone(false);
      navigate(fastReviewPath(contestId, id, filters), { replace: true });
      window.scrollTo({ top: 0 });
    },
    [contestId, filters, navigate],
  );

  const afterOutcome = useCallback(
    (r: OutcomeResult, outcome: FormatOutcome) => {
      void qc.invalidateQueries({ queryKey: reviewKeys.sheet(r.id) });
      void qc.invalidateQueries({ queryKey: ["review", "neighbours"] });
      void qc.invalidateQueries({ queryKey: reviewKeys.contests });
      void qc.invalidateQueries({ queryKey: ["review", "works"] });
      if (outcome === "format_reopen") return;
      // The next work waiting for review in this filter (known ahead), else the server's.
      const target = nextPending ?? (filters.categoryId || filters.keyword ? null : r.next);
      if (target) go(target);
      else setDone(true);
    },
    [filters.categoryId, filters.keyword, go, nextPending, qc],
  );

  const decide = useCallback(
    async (outcome: FormatOutcome) => {
      const s = sheet.data;
      if (!s || busy) return;
      if (!s.outcomes.includes(outcome)) {
        message.warning(`该作品当前为「${s.statusName}」，不能${LABELS[outcome]}`);
        return;
      }
      if (outcome === "format_return" || outcome === "format_reject") {
        setModal(outcome);
        return;
      }
      setBusy(true);
      const reply = await giveOutcome(s.id, outcome, { version: s.version });
      setBusy(false);
      if (reply.error === 0 && reply.data) afterOutcome(reply.data, outcome);
    },
    [afterOutcome, busy, message, sheet.data],
  );

  const move = useCallback(
    (dir: "next" | "prev") => {
      const id = nav.data?.[dir];
      if (id) go(id);
      else message.info(dir === "next" ? "已经是最后一件" : "已经是第一件");
    },
    [go, message, nav.data],
  );

  // The keyboard.
  const handler = useRef<(e: KeyboardEvent) => void>(() => undefined);
  handler.current = (e: KeyboardEvent) => {
    if (modal || !isCommandTarget(e)) return;
    const k = e.key.length === 1 ? e.key.toUpperCase() : e.key;
    const action = (
      { P: "format_pass", Enter: "format_pass", R: "format_return", X: "format_reject", U: "format_reopen" } as Record<
        string,
        FormatOutcome
      >
    )[k];
    if (action) {
      e.preventDefault();
      void decide(action);
    } else if (k === "J" || k === "ArrowRight") {
      e.preventDefault();
      move("next");
    } else if (k === "K" || k === "ArrowLeft") {
      e.preventDefault();
      move("prev");
    }
  };
  useEffect(() => {
    const on = (e: KeyboardEvent) => handler.current(e);
    window.addEventListener("keydown", on);
    return () => window.removeEventListener("keydown", on);
  }, []);

  const restart = async () => {
    const start =
      (await firstWork(contestId, pendingFilters).catch(() => null)) ?? (await firstWork(contestId, filters).catch(() => null));
    if (start) go(start);
    else message.info("当前筛选下没有作品");
  };

  if (!contestId || !workId)
    return <Result status="404" title="地址不正确：应为 /reviewer/fastReview/赛事/startFrom/10 位作品编号" />;

  const s = sheet.data;
  const position = nav.data;
  const header = (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="fast-header">
      <div style={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 16 }}>
        <Space style={{ flex: "1 1 420px", minWidth: 0 }}>
          <Link to={back.to}>
            <Button icon={<ArrowLeftOutlined />}>{back.label}</Button>
          </Link>
          <Typography.Text strong>{route.label}</Typography.Text>
          {contest && (
            <Typography.Text type="secondary" ellipsis>
              {contest.name}
            </Typography.Text>
          )}
        </Space>
        <div style={{ flex: "0 0 340px" }}>
          <Space size={12} style={{ width: "100%", justifyContent: "space-between" }}>
            <Typography.Text strong data-testid="fast-position">
              {position
                ? position.index
                  ? `第 ${position.index} / ${position.total} 件`
                  : `共 ${position.total} 件（当前作品不在筛选中）`
                : "…"}
            </Typography.Text>
            {contest && (
              <Tooltip
                title={`待审查 ${contest.pending}，已通过 ${contest.passed}，退回修改 ${contest.returned}，不符合要求 ${contest.rejected}`}
              >
                <Space size={8} data-testid="fast-progress">
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    已审 {contest.reviewed} / {contest.total}
                  </Typography.Text>
                  <Progress
                    size="small"
                    style={{ width: 120, margin: 0 }}
                    percent={contest.total ? Math.floor((contest.reviewed / contest.total) * 100) : 0}
                  />
                </Space>
              </Tooltip>
            )}
          </Space>
        </div>
      </div>
      <Space wrap style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">筛选：</Typography.Text>
        <Select
          allowClear
          placeholder="全部状态"
          size="small"
          style={{ width: 120 }}
          value={filters.status}
          options={STATUS_FILTER_OPTIONS}
          onChange={(v) => setFilters({ ...filters, status: v })}
          data-testid="fast-filter-status"
        />
        <Select
          allowClear
          placeholder="全部大类"
          size="small"
          style={{ width: 200 }}
          value={filters.categoryId}
          options={cats.options}
          onChange={(v) => setFilters({ ...filters, categoryId: v })}
        />
        <Input.Search
          allowClear
          size="small"
          placeholder="作品编号或名称"
          style={{ width: 180 }}
          defaultValue={filters.keyword}
          onSearch={(v) => setFilters({ ...filters, keyword: v })}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          上一件/下一件在筛选内移动；给出结论后跳到下一件待审查的作品
        </Typography.Text>
      </Space>
    </Card>
  );

  if (done) {
    return (
      <>
        {header}
        <Card data-testid="fast-done">
          <Result
            status="success"
            title="当前筛选下已没有待审查的作品"
            subTitle={contest ? `本赛事已审 ${contest.reviewed} / ${contest.total} 件` : undefined}
            extra={[
              <Link key="list" to={back.to}>
                <Button type="primary">返回{back.label}</Button>
              </Link>,
              <Button key="stay" onClick={() => setDone(false)}>
                继续查看本作品
              </Button>,
            ]}
          />
        </Card>
      </>
    );
  }

  return (
    <div data-testid="fast-review">
      {header}
      {sheet.isLoading ? (
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      ) : sheet.isError || !s ? (
        <Card>
          <Result
            status="404"
            title={sheet.error?.message ?? "作品不存在或不在您负责的形式审查中"}
            extra={
              <Button type="primary" onClick={restart}>
                从第一件待审查的作品开始
              </Button>
            }
          />
        </Card>
      ) : (
        <Row gutter={16}>
          <Col xs={24} lg={16}>
            <Card
              title={
                <Space wrap>
                  <Tag>{s.id}</Tag>
                  <span data-testid="fast-work-name">{s.name}</span>
                </Space>
              }
              extra={
                <Link to={reviewDetailPath(s.id)} target="_blank">
                  在新窗口打开审核单
                </Link>
              }
              data-testid="fast-work"
              data-work-id={s.id}
            >
              <CurrentDecision sheet={s} />
              <SheetFacts sheet={s} column={2} />
              <Typography.Title level={5} style={{ marginTop: 8 }}>
                附件
              </Typography.Title>
              <SheetFiles sheet={s} />
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                作品信息
              </Typography.Title>
              <SheetFields sheet={s} />
            </Card>
          </Col>
          <Col xs={24} lg={8}>
            <div style={{ position: "sticky", top: 16 }}>
              <ActionPanel
                sheet={s}
                busy={busy}
                onDecide={decide}
                onMove={move}
                hasPrev={!!position?.prev}
                hasNext={!!position?.next}
              />
              <div style={{ marginTop: 16 }}>
                <SheetDupPanel workId={s.id} newTab compact />
              </div>
              <Card size="small" title="检查清单" style={{ marginTop: 16 }}>
                <Checklist items={s.checklist} compact />
              </Card>
              <Card size="small" style={{ marginTop: 16 }} data-testid="fast-next">
                {nav.data?.next ? (
                  <Typography.Text type="secondary">
                    下一件：{nextSheet.data ? `《${nextSheet.data.name}》` : nav.data.next}
                    {nextSheet.data ? (
                      <Tag color="green" style={{ marginInlineStart: 8 }}>
                        已预加载
                      </Tag>
                    ) : (
                      <Tag style={{ marginInlineStart: 8 }}>加载中</Tag>
                    )}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">这是筛选中的最后一件</Typography.Text>
                )}
                {nextPending && nextPending !== nav.data?.next && (
                  <div>
                    <Typography.Text type="secondary">下一件待审查：{nextPending}</Typography.Text>
                  </div>
                )}
              </Card>
              <Collapse
                size="small"
                style={{ marginTop: 16 }}
                items={[
                  {
                    key: "h",
                    label: `审查记录（${s.history.length}）`,
                    children: s.history.length ? (
                      <SheetHistory sheet={s} />
                    ) : (
                      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无" />
                    ),
                  },
                ]}
              />
            </div>
          </Col>
        </Row>
      )}
      <OutcomeModal
        target={modal && s ? { id: s.id, name: s.name, version: s.version } : null}
        outcome={modal}
        onClose={() => setModal(null)}
        onDone={(r) => modal && afterOutcome(r, modal)}
      />
    </div>
  );
}

function ActionPanel({
  sheet,
  busy,
  onDecide,
  onMove,
  hasPrev,
  hasNext,
}: {
  sheet: ReviewSheet;
  busy: boolean;
  onDecide: (o: FormatOutcome) => void;
  onMove: (d: "next" | "prev") => void;
  hasPrev: boolean;
  hasNext: boolean;
}) {
  const icon: Record<FormatOutcome, React.ReactNode> = {
    format_pass: <CheckOutlined />,
    format_return: <RollbackOutlined />,
    format_reject: <CloseOutlined />,
    format_reopen: <UndoOutlined />,
  };
  return (
    <Card size="small" title="审查结论" data-testid="fast-actions">
      {!sheet.outcomes.length && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          message={`该作品为「${sheet.statusName}」，当前没有可给出的结论`}
        />
      )}
      <Space direction="vertical" style={{ width: "100%" }}>
        {KEYS.filter((k) => k.outcome && sheet.outcomes.includes(k.outcome)).map((k) => (
          <Button
            key={k.label}
            block
            size="large"
            loading={busy && k.outcome === "format_pass"}
            type={k.outcome === "format_pass" ? "primary" : "default"}
            danger={k.outcome === "format_reject"}
            icon={icon[k.outcome!]}
            onClick={() => onDecide(k.outcome!)}
            data-testid={`fast-${k.outcome}`}
            style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}
          >
            <span style={{ flex: 1, textAlign: "left" }}>{k.label}</span>
            <Space size={4}>
              {k.keys.map((x) => (
                <Kbd key={x}>{x}</Kbd>
              ))}
            </Space>
          </Button>
        ))}
        <Space.Compact block>
          <Button block icon={<LeftOutlined />} disabled={!hasPrev} onClick={() => onMove("prev")} data-testid="fast-prev">
            上一件 <Kbd>K</Kbd>
          </Button>
          <Button block disabled={!hasNext} onClick={() => onMove("next")} data-testid="fast-next-btn">
            下一件 <Kbd>J</Kbd> <RightOutlined />
          </Button>
        </Space.Compact>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8, marginBottom: 0 }} data-testid="fast-keys">
        快捷键：{KEYS.map((k) => `${k.keys.join("/")} ${k.label}`).join("，")}
      </Typography.Paragraph>
    </Card>
  );
}
