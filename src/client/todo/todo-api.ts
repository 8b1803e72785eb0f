/**
 * The signed-in user's to-do items (GET /Backend/UserCenter/todo): one query shared by the
 * user centre and the menu's badges, fetched again on navigation and when the window
 * regains focus — never once per menu entry.
 */
import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { DigestPreference, TodoReply } from "../../shared/todo/schema";
import { get, post, put } from "../request";
import { useSession } from "../providers/use-session";
import { onPageShown } from "../routing/page-shown";

export const TODO_KEY = ["user-center", "todo"] as const;

export const todoApi = {
  todo: () => get<TodoReply>("/Backend/UserCenter/todo", undefined, { silent: true }),
  digest: () => get<DigestPreference>("/Backend/UserCenter/digest", undefined, { silent: true }),
  setDigest: (todoDigest: boolean) => put<DigestPreference>("/Backend/UserCenter/digest", { todoDigest }),
  /** Marks a 待决定的晋级 item 已处理 (its key). */
  promotionDone: (key: string) => post<unknown>("/Backend/UserCenter/todo/promotion/done", { key }),
};

/**
 * False until the routed page has shown and its first data has come (no request of the query
 * client under way), and then the browser was idle; or 3 s after mounting at the latest. What can
 * wait for it (the menu's to-do badges) then does not take the main thread from the page's first
 * rows (issue 15): the first idle moment used to come while the page's own script was still
 * loading, and the badges' answer and the menu's renders then came before the page's.
 */
export function useIdleAfterPage(): boolean {
  const client = useQueryClient();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let going = false;
    let stopIdle = () => {};
    let stopCache = () => {};
    const done = () => {
      cleanUp();
      setIdle(true);
    };
    const check = () => {
      if (going || client.isFetching() > 0) return;
      going = true;
      stopCache();
      if (typeof requestIdleCallback === "function") {
        const id = requestIdleCallback(done, { timeout: 1000 });
        stopIdle = () => cancelIdleCallback(id);
      } else {
        const id = window.setTimeout(done, 200);
        stopIdle = () => clearTimeout(id);
      }
    };
    const latest = window.setTimeout(done, 3000);
    const stopPage = onPageShown(() => {
      stopCache = client.getQueryCache().subscribe(check);
      check();
    });
    function cleanUp() {
      stopPage();
      stopCache();
      clearTimeout(latest);
      stopIdle();
    }
    return cleanUp;
  }, [client]);
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
