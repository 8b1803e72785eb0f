/** Every browser test: when it fails, the server's last requests go with the failure (server-log.ts). */
import { beforeEach } from "vitest";
import { recentRequests } from "./server-log";

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    const lines = recentRequests();
    if (lines.length) console.error(`服务器最近收到的请求（最后 ${lines.length} 个）：\n${lines.join("\n")}`);
  });
});
