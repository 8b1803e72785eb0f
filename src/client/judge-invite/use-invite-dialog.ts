/**
 * Data hooks of the invitation dialog (InviteDialog.tsx): the contest to invite to (given, or
 * chosen among the admin's contests — a non-school one first) with its category tree, and the
 * names of the selected pool persons for their tags.
 */
import { useEffect, useMemo, useState } from "react";
import { useQueries } from "@tanstack/react-query";
import type { JudgePersonView } from "../../shared/judge-pool/schema";
import { useIsRoot, useMyContests } from "../notice/contest-select";
import { fetchData } from "../request";
import { useInviteContest } from "./api";

const MAX_NAMED = 30;

/** The contest of the dialog: `given`, else the admin's choice (root picks from all contests). */
export function useContestChoice(given: number | undefined, open: boolean) {
  const isRoot = useIsRoot();
  const mine = useMyContests(!given && !isRoot);
  const [chosen, setChosen] = useState<number | undefined>(given);
  useEffect(() => {
    if (chosen === undefined && mine.data?.length) setChosen(mine.data.find((c) => c.level !== "school")?.id ?? mine.data[0].id);
  }, [chosen, mine.data]);
  const contestId = chosen ?? 0;
  const contest = useInviteContest(open && chosen ? chosen : undefined);
  const treeData = useMemo(
    () =>
      (contest.data?.categories ?? []).map((c) => ({
        value: c.id,
        title: c.name,
        children: c.children.map((s) => ({ value: s.id, title: s.name })),
      })),
    [contest.data],
  );
  return { chosen, setChosen, contestId, contest, treeData };
}

/** The pool records' names for the tags (the first few; the check's table names everyone). */
export function usePoolNames(personIds: number[]) {
  const people = useQueries({
    queries: personIds.slice(0, MAX_NAMED).map((id) => ({
      queryKey: ["judge-pool", "person", id],
      queryFn: () => fetchData<JudgePersonView>(`/Backend/JudgePool/persons/${id}`),
    })),
  });
  return new Map(
    people.flatMap((q) => (q.data ? [[q.data.id, { name: q.data.name, schoolName: q.data.schoolName }] as const] : [])),
  );
}
