/** The admin application's side menu: the current user's menu and to-do counts in the SiderMenu. */
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { useMenu } from "./use-menu";
import { useIdleAfterPage, useTodo, useTodoRefresh } from "../todo/todo-api";
import { SiderMenu } from "./SiderMenu";

export { SiderMenu };

export function MenuSider() {
  const { menu } = useMenu();
  const { pathname } = useLocation();
  // One fetch of the to-do counts for every entry, again on each navigation (and on focus). The
  // badges come once the page has shown its first data and the browser is idle: the page goes first.
  const todo = useTodo({ wait: !useIdleAfterPage() });
  const refreshTodo = useTodoRefresh();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else refreshTodo();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
  return <SiderMenu menu={menu} badges={todo.data?.badges} />;
}
