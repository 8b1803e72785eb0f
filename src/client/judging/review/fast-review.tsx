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
 * waiting for review in the same filter is shown. The state and the keys are in
 * use-fast-review.ts; the header, the sheet and the outcome buttons in FastHeader.tsx,
 * FastSheet.tsx and FastActionPanel.tsx.
 */
import { Link, useParams } from "react-router";
import { Button, Card, Result, Skeleton } from "antd";
import type { PageProps } from "../../routing/model";
import { FastHeader } from "./FastHeader";
import { FastSheet } from "./FastSheet";
import { OutcomeModal } from "./OutcomeModal";
import { useFastReview } from "./use-fast-review";

export default function FastReview({ route }: PageProps) {
  const params = useParams();
  const contestId = Number(params.contestId);
  const workId = /^\d{10}$/.test(params.startWorkId ?? "") ? Number(params.startWorkId) : 0;
  const {
    filters,
    setFilters,
    sheet,
    nav,
    nextPending,
    contest,
    cats,
    modal,
    setModal,
    busy,
    done,
    setDone,
    back,
    nextSheet,
    afterOutcome,
    decide,
    move,
    restart,
  } = useFastReview(contestId, workId);

  if (!contestId || !workId)
    return <Result status="404" title="地址不正确：应为 /reviewer/fastReview/赛事/startFrom/10 位作品编号" />;

  const s = sheet.data;
  const header = (
    <FastHeader
      label={route.label}
      back={back}
      contest={contest}
      position={nav.data}
      filters={filters}
      setFilters={setFilters}
      categoryOptions={cats.options}
    />
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
        <FastSheet
          s={s}
          busy={busy}
          decide={decide}
          move={move}
          position={nav.data}
          nextSheet={nextSheet.data}
          nextPending={nextPending}
        />
      )}
      <OutcomeModal
        target={modal && s ? { id: s.id, name: s.name, version: s.version } : null}
        outcome={modal}
        onClose={() => setModal(null)}
        onDone={(r) => {
          if (modal) void afterOutcome(r, modal);
        }}
      />
    </div>
  );
}
