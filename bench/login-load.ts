/**
 * npm run bench:login — logins under load (issue 30): LOGINS (default 50) logins at once against a real
 * server in a child process, alone and while attachments are being uploaded (bench/
 * upload-load.ts: UPLOADS files, CONCURRENCY at a time), and the uploads alone for their
 * MB/s. argon2 runs on the libuv threadpool that file writes need too (src/server/account/
 * password.ts): this shows whether a login burst starves the uploads and the reverse.
 * UV_THREADPOOL_SIZE is passed on to the server.
 * Ends with one JSON line: loginP50Ms, loginP99Ms (alone), loadedLoginP99Ms, uploadMBps
 * (alone), loadedUploadMBps (with login bursts), errors.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveUploads, startUploadServer, uploadLoad } from "./upload-load";

const LOGINS = Number(process.env.LOGINS ?? 50);
const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? 0;

async function loginOnce(base: string): Promise<number | null> {
  const t0 = performance.now();
  const r = await fetch(`${base}/Backend/Common/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ username: "student", password: "Demo@2026", page: "student" }),
  });
  await r.arrayBuffer();
  return r.status === 200 ? performance.now() - t0 : null;
}

/** LOGINS logins at once; their times and failures. */
async function burst(base: string) {
  const rs = await Promise.all(Array.from({ length: LOGINS }, () => loginOnce(base)));
  return { times: rs.filter((x): x is number => x !== null), errors: rs.filter((x) => x === null).length };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-login-"));
  const server = await startUploadServer(import.meta.filename, process.execArgv, dataDir);
  try {
    await burst(server.base); // warm-up
    const alone = await burst(server.base);
    console.error(
      `${LOGINS} logins at once, alone: p50 ${Math.round(p(alone.times, 0.5))} ms, p99 ${Math.round(p(alone.times, 0.99))} ms`,
    );
    const uploads = await uploadLoad(server);
    console.error(`uploads alone: ${uploads.serverMBps} MB/s, p99 ${uploads.uploadP99Ms} ms`);
    // Uploads again, with a burst of logins after another while they run.
    const loadedTimes: number[] = [];
    let loginErrors = alone.errors;
    let uploading = true;
    const bursts = (async () => {
      await new Promise((r) => setTimeout(r, 500));
      while (uploading) {
        const b = await burst(server.base);
        loadedTimes.push(...b.times);
        loginErrors += b.errors;
      }
    })();
    const loaded = await uploadLoad(server);
    uploading = false;
    await bursts;
    console.error(
      `uploads with login bursts: ${loaded.serverMBps} MB/s, p99 ${loaded.uploadP99Ms} ms; ` +
        `${loadedTimes.length} logins p50 ${Math.round(p(loadedTimes, 0.5))} ms, p99 ${Math.round(p(loadedTimes, 0.99))} ms`,
    );
    console.log(
      JSON.stringify({
        loginP50Ms: Math.round(p(alone.times, 0.5)),
        loginP99Ms: Math.round(p(alone.times, 0.99)),
        loadedLoginP99Ms: Math.round(p(loadedTimes, 0.99)),
        uploadMBps: uploads.serverMBps,
        loadedUploadMBps: loaded.serverMBps,
        errors: loginErrors + uploads.errors + loaded.errors,
      }),
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--server") await serveUploads(process.argv[3]);
else await main();
