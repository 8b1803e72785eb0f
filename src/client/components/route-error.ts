/** What the error screen shows for a router error (seed section 2, "Error screen"). */
import { isRouteErrorResponse } from "react-router";
import { ERROR_STACK_MAX_CHARS } from "../../shared/constants";
import { STATUS_TEXT } from "../../shared/errors";

export const NOT_FOUND_HEADLINE = "来到了一片没有内容的荒原";
export const OTHER_ERROR_HEADLINE = "页面出错了，请尝试刷新页面";
export const REFUSED_HEADLINE = "无法打开该页面";

export interface RouteErrorView {
  headline: string;
  message: string;
  status: number;
  statusText: string;
  stack: string;
}

export function truncateStack(stack: string, max = ERROR_STACK_MAX_CHARS): string {
  return stack.length > max ? `${stack.slice(0, max)}…` : stack;
}

export function describeRouteError(error: unknown): RouteErrorView {
  let status = 500;
  let statusText = "";
  let message: string;
  let stack: string;
  let refused = false;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    statusText = error.statusText;
    const data: unknown = error.data;
    message =
      status === 404 ? "您访问的页面不存在" : typeof data === "string" && data ? data : (STATUS_TEXT[status] ?? "请求失败");
    stack = typeof data === "string" ? data : data ? JSON.stringify(data) : "";
  } else if (error instanceof Error) {
    const s = (error as Error & { status?: unknown }).status;
    if (typeof s === "number") status = s;
    statusText = error.name;
    message = error.message;
    // The server refused (a loader's 4xx reply): its Chinese message is the whole story.
    refused = error.name === "LoaderError" && status >= 400 && status < 500;
    stack = refused ? "" : (error.stack ?? "");
    if (refused) statusText = "";
  } else {
    message = typeof error === "string" ? error : "未知错误";
    stack = typeof error === "string" ? error : "";
  }
  return {
    headline: status === 404 ? NOT_FOUND_HEADLINE : refused ? REFUSED_HEADLINE : OTHER_ERROR_HEADLINE,
    message,
    status,
    statusText: statusText || STATUS_TEXT[status] || "",
    stack: truncateStack(stack),
  };
}
