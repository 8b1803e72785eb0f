/** The work-type tree (GET /Backend/Common/work-type/tree): every 大类 with its rules, rubric and 小类. */
import { useQuery } from "@tanstack/react-query";
import type { WorkTypeTreeNode } from "../../shared/work-type/schema";
import { get } from "../request";

export function useWorkTypeTree(includeArchived = false) {
  const query = useQuery({
    queryKey: ["work-type-tree", includeArchived],
    queryFn: async () => {
      const reply = await get<WorkTypeTreeNode[]>("/Backend/Common/work-type/tree", { includeArchived }, { silent: true });
      if (reply.error !== 0) throw new Error(reply.info || "作品类别加载失败");
      return reply.data ?? [];
    },
  });
  return { tree: query.data ?? [], query };
}

/** The 大类 as Select options; archived ones keep their name but cannot be newly chosen. */
export function useCategoryOptions() {
  const { tree, query } = useWorkTypeTree(true);
  return {
    options: tree.map((c) => ({ value: c.id, label: c.archived ? `${c.name}（已归档）` : c.name, disabled: c.archived })),
    loading: query.isLoading,
  };
}
