/**
 * The signed-in user's to-do items (GET /Backend/UserCenter/todo): one query shared by the
 * user centre and the menu's badges, fetched again on navigation and when the window
 * regains focus — never once per menu entry.
 */
import { useEffect, useState } from "react";
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

/**
 * False until the browser is first idle after the component mounted (or 3 s at most): what can
 * wait for it (the menu's to-do badges) does not delay the page's first data (issue 15).
 */
export function useIdleAfterMount(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(() => setIdle(true), { timeout: 3000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 500);
    return () => clearTimeout(id);
  }, []);
  return idle;
}

/** The to-do items; `wait`: not asked for while true (another user of the query may still ask). */
export function useTodo({ wait = false }: { wait?: boolean } = {}) {
  const { loggedIn } = useSession();
  return useQuery({
    queryKey: TODO_KEY,
    enabled: loggedIn && !wait,
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
