/**
 * The sha256 of uploads, computed on worker threads instead of the event loop.
 *
 * Every blob is named by its sha256, so every uploaded byte is hashed. On the request thread
 * that is ~0.7 ms of CPU per MB here (OpenSSL with SHA-NI) for every upload in flight, one
 * after another on the one JavaScript thread that also parses every request; at the disk's
 * ~300 MB/s that is a fifth of that thread (measurements: docs/performance.md, 2026-12-02).
 * Here a small pool of threads (one per core, at most 4, started on first use) hashes instead:
 * a job is given 1 MiB buffers of shared memory (takeBuffer), read in place without a copy,
 * each acknowledged once hashed so the upload can refill it, and resolves its digest at the
 * end. A thread is referenced only while it has jobs, so an idle pool never keeps the process alive.
 * Both blob stores hash through BatchedHash (batched-hash.ts): the local one writing each batch to its file
 * (local.ts), the S3 one passing the stream's own chunks on to the multipart upload (s3.ts).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

const SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const jobs = new Map();
parentPort.on("message", (m) => {
  if (m.buf) {
    let h = jobs.get(m.id);
    if (!h) jobs.set(m.id, (h = createHash("sha256")));
    h.update(new Uint8Array(m.buf, 0, m.length));
    parentPort.postMessage({ id: m.id, hashed: true });
  } else if (m.end) {
    const h = jobs.get(m.id) ?? createHash("sha256");
    jobs.delete(m.id);
    parentPort.postMessage({ id: m.id, sha256: h.digest("hex") });
  } else jobs.delete(m.id);
});
`;

const THREADS = Math.max(1, Math.min(4, availableParallelism()));
/** The size of a shared buffer (the batch an upload is written and hashed in). */
export const BATCH = 1024 * 1024;
/** Free shared buffers kept for the next uploads (more are left to the garbage collector). */
const KEEP_FREE = 32;

interface Waiter {
  hashed: (() => void)[];
  digest?: { ok: (sha256: string) => void; fail: (e: Error) => void };
}

interface Thread {
  worker: Worker;
  /** jobs given to this thread and not yet finished */
  jobs: number;
  waiting: Map<number, Waiter>;
}

const pool: Thread[] = [];
const free: Buffer[] = [];
let nextId = 1;

/** A BATCH-byte buffer whose memory the hash threads share (no copy is made to hash it). */
export const takeBuffer = (): Buffer => free.pop() ?? Buffer.from(new SharedArrayBuffer(BATCH));
/** Gives a buffer of takeBuffer back once nothing reads it any more. */
export const releaseBuffer = (buf: Buffer) => {
  if (free.length < KEEP_FREE) free.push(buf);
};

function startThread(): Thread {
  const worker = new Worker(SOURCE, { eval: true });
  worker.unref();
  const t: Thread = { worker, jobs: 0, waiting: new Map() };
  worker.on("message", (m: { id: number; hashed?: true; sha256?: string }) => {
    const w = t.waiting.get(m.id);
    if (!w) return;
    if (m.hashed) w.hashed.shift()?.();
    else {
      t.waiting.delete(m.id);
      w.digest?.ok(m.sha256!);
    }
  });
  const fail = (e: Error) => {
    if (pool.includes(t)) pool.splice(pool.indexOf(t), 1);
    for (const w of t.waiting.values()) {
      w.digest?.fail(e);
      for (const h of w.hashed) h();
    }
    t.waiting.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`hash thread exited (${code})`)));
  return t;
}

/** The least busy thread, starting one while fewer than THREADS run. */
function pickThread(): Thread {
  const idle = pool.find((t) => t.jobs === 0);
  if (idle) return idle;
  if (pool.length < THREADS) {
    const t = startThread();
    pool.push(t);
    return t;
  }
  return pool.reduce((a, b) => (b.jobs < a.jobs ? b : a));
}

export interface Sha256Job {
  /** Hashes the first `length` bytes of `buf` (a takeBuffer buffer) next; resolves once they are read. */
  update(buf: Buffer, length: number): Promise<void>;
  /** The hex digest of everything given. */
  digest(): Promise<string>;
  /** Drops the job (the upload failed). */
  abort(): void;
}

/** A new sha256 computed on a worker thread. */
export function sha256Job(): Sha256Job {
  const t = pickThread();
  const id = nextId++;
  const waiter: Waiter = { hashed: [] };
  t.waiting.set(id, waiter);
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    t.waiting.delete(id);
    if (--t.jobs === 0) t.worker.unref();
  };
  if (t.jobs++ === 0) t.worker.ref();
  return {
    update(buf, length) {
      if (!pool.includes(t)) return Promise.reject(new Error("hash thread failed"));
      return new Promise<void>((ok) => {
        waiter.hashed.push(ok);
        t.worker.postMessage({ id, buf: buf.buffer, length });
      });
    },
    digest() {
      if (!pool.includes(t)) return Promise.reject(new Error("hash thread failed"));
      return new Promise<string>((ok, fail) => {
        waiter.digest = {
          ok: (sha256) => {
            finish();
            ok(sha256);
          },
          fail: (e) => {
            finish();
            fail(e);
          },
        };
        t.worker.postMessage({ id, end: true });
      });
    },
    abort() {
      if (done) return;
      t.worker.postMessage({ id, abort: true });
      finish();
    },
  };
}
