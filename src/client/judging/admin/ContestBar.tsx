/**
 * The contest chooser of the judging setting screens: the contest admin's own contests
 * (root searches all); the choice is kept in the address (?contestId=) and defaults to
 * the first own contest.
 */
import { useEffect } from "react";
import { Alert, Form } from "antd";
import { ContestSelect, useIsRoot, useMyContests } from "../../notice/contest-select";
import { useContestParam } from "./api";

export function useChosenContest() {
  const isRoot = useIsRoot();
  const mine = useMyContests(!isRoot);
  const [contestId, setContestId] = useContestParam();
  useEffect(() => {
    if (contestId === undefined && mine.data?.length)
      setContestId(mine.data.find((c) => c.level !== "school")?.id ?? mine.data[0].id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [contestId, mine.data]);
  const contest = mine.data?.find((c) => c.id === contestId);
  return { contestId, setContestId, contest, mine, isRoot };
}

export function ContestBar({ state }: { state: ReturnType<typeof useChosenContest> }) {
  const { contestId, setContestId, mine, isRoot } = state;
  return (
    <>
      <Form layout="inline" style={{ marginBottom: 16 }}>
        <Form.Item label="赛事">
          <ContestSelect
            style={{ minWidth: 380 }}
            value={contestId}
            onChange={(v) => v && setContestId(v)}
            data-testid="judging-contest"
          />
        </Form.Item>
      </Form>
      {mine.isError && <Alert type="error" showIcon message={mine.error.message} />}
      {!isRoot && mine.data && !mine.data.length && (
        <Alert type="info" showIcon message="您目前没有负责的赛事，请联系超级管理员。" />
      )}
    </>
  );
}
