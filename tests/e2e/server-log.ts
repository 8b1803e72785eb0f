/**
 * The server's last requests in a browser test (method, address, status, time taken, and the
 * start of a /Backend answer; the built scripts and styles by file name only), printed by setup.ts
 * when a test fails: a step that waited in vain then shows whether the page asked (for its data,
 * or for the script of its page), and what the server answered.
 */
import type { FastifyInstance } from "fastify";

const KEEP = 200;
const lines: string[] = [];
let t0 = Date.now();

export function recordRequests(app: FastifyInstance) {
  t0 = Date.now();
  lines.length = 0;
  const answers = new WeakMap<object, string>();
  app.addHook("onSend", async (req, _reply, payload) => {
    if (req.url.startsWith("/Backend/") && typeof payload === "string") answers.set(req, payload.slice(0, 160));
    return payload;
  });
  app.addHook("onResponse", async (req, reply) => {
    if (req.url.startsWith("/assets/")) {
      lines.push(`+${Date.now() - t0} ms ${req.url.slice(8)} → ${reply.statusCode} (${reply.elapsedTime.toFixed(0)} ms)`);
      if (lines.length > KEEP) lines.shift();
      return;
    }
    const answer = answers.get(req);
    lines.push(
      `+${Date.now() - t0} ms ${req.method} ${req.url} → ${reply.statusCode} (${reply.elapsedTime.toFixed(0)} ms)${answer ? ` ${answer}` : ""}`,
    );
    if (lines.length > KEEP) lines.shift();
  });
}

export const recentRequests = (): readonly string[] => lines;
