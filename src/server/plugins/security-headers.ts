/**
 * Security headers (Content-Security-Policy, X-Frame-Options, …) on every reply, as
 * @fastify/helmet sets them for our options — but worked out once at start, not per request.
 *
 * @fastify/helmet builds a new helmet middleware for each request (it parses and validates
 * the whole CSP and every option again): under load that was about a seventh of the CPU time
 * of a cached public reply. Our headers do not depend on the request (no per-route options,
 * no CSP nonces), so they are taken once from a throwaway instance running @fastify/helmet with
 * the same options, and one synchronous hook copies them onto each reply.
 */
import Fastify, { type FastifyInstance } from "fastify";
import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";

/** The headers @fastify/helmet sets with `options`, as [name, value] pairs (names lower-case). */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, { ...options, global: true });
    // In the handler, only the onRequest hooks have written to the raw response: helmet's.
    probe.get("/", async (_req, reply) => Object.entries(reply.raw.getHeaders()).map(([k, v]) => [k, String(v)]));
    const res = await probe.inject({ method: "GET", url: "/" });
    return JSON.parse(res.body) as [string, string][];
  } finally {
    await probe.close();
  }
}

export async function registerSecurityHeaders(app: FastifyInstance, options: FastifyHelmetOptions) {
  const headers = await helmetHeaders(options);
  if (!headers.some(([k]) => k === "content-security-policy"))
    throw new Error("security headers: no Content-Security-Policy from @fastify/helmet");
  app.addHook("onRequest", (_req, reply, done) => {
    const raw = reply.raw;
    for (let i = 0; i < headers.length; i++) raw.setHeader(headers[i][0], headers[i][1]);
    done();
  });
}
