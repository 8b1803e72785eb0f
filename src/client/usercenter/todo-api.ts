/**
 * The signed-in user's to-do items (GET /Backend/UserCenter/todo): one query shared by the
 * user centre and the menu's badges, fetched again on navigation and when the window
 * regains focus — never once per menu entry.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { DigestPreference, TodoReply } from "../../shared/todo/schema";
import { get, put } from "../request";
import { useSession } from "../providers/use-session";

export const TODO_KEY = ["user-center", "todo"] as const;

export const todoApi = {
  todo: () => get<TodoReply>("/Backend/UserCenter/todo", undefined, { silent: true }),
  digest: () => get<DigestPreference>("/Backend/UserCenter/digest", undefined, { silent: true }),
  setDigest: (todoDigest: boolean) => put<DigestPreference>("/Backend/UserCenter/digest", { todoDigest }),
};

export function useTodo() {
  const { loggedIn } = useSession();
  return useQuery({
    queryKey: TODO_KEY,
    enabled: loggedIn,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
    queryFn: async () => {
      const reply = await todoApi.todo();
      if (reply.error !== 0 || !reply.data) throw new Error(reply.info || "待办事项加载失败");
      return reply.data;
    },
  });
}

export function useTodoRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: TODO_KEY });
}
