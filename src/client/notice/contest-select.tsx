/**
 * Choosing a contest for notices and news: root searches all contests; a contest admin
 * picks one of the own contests (GET /Backend/ContestAdmin/contest/mine).
 */
import { useSelect } from "@refinedev/antd";
import { useQuery } from "@tanstack/react-query";
import { Select, type SelectProps } from "antd";
import type { ContestView } from "../../shared/contest/schema";
import { ROLE } from "../../shared/roles";
import { get } from "../request";
import { useSession } from "../providers/use-session";

const LEVEL: Record<string, string> = { national: "国赛", provincial: "省赛", school: "校赛" };
export const contestLabel = (c: Pick<ContestView, "name" | "level">) => `${c.name}（${LEVEL[c.level] ?? c.level}）`;

export function useIsRoot() {
  return useSession().user.userType === ROLE.root;
}

/** The contest admin's own contests. */
export function useMyContests(enabled = true) {
  return useQuery({
    queryKey: ["contests", "mine"],
    enabled,
    queryFn: async () => {
      const reply = await get<ContestView[]>("/Backend/ContestAdmin/contest/mine", undefined, { silent: true });
      if (reply.error !== 0) throw new Error(reply.info || "赛事加载失败");
      return reply.data ?? [];
    },
  });
}

type Props = Omit<SelectProps<number>, "options" | "mode" | "value"> & {
  value?: number | null;
  defaultContestId?: number | null;
};

export function ContestSelect({ defaultContestId, ...props }: Props) {
  const isRoot = useIsRoot();
  const mine = useMyContests(!isRoot);
  const { selectProps } = useSelect<ContestView>({
    resource: "contests",
    optionLabel: (c) => contestLabel(c),
    optionValue: "id",
    onSearch: (keyword) => [{ field: "keyword", operator: "eq", value: keyword }],
    pagination: { pageSize: 50 },
    defaultValue: defaultContestId ?? undefined,
    queryOptions: { enabled: isRoot },
    defaultValueQueryOptions: { enabled: isRoot && !!defaultContestId },
  });
  if (isRoot)
    return (
      <Select<number>
        {...(selectProps as SelectProps<number>)}
        placeholder="搜索赛事名称"
        aria-label="赛事"
        {...props}
        value={props.value ?? undefined}
      />
    );
  return (
    <Select<number>
      placeholder="选择您负责的赛事"
      aria-label="赛事"
      loading={mine.isPending}
      notFoundContent={mine.isError ? mine.error.message : "您目前没有负责的赛事"}
      options={(mine.data ?? []).map((c) => ({ value: c.id, label: contestLabel(c) }))}
      {...props}
      value={props.value ?? undefined}
    />
  );
}
