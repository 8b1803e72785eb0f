/**
 * Moves the embedded database's WAL into the database file on a thread of its own.
 *
 * SQLite's automatic checkpoint runs in the connection that commits, on the event loop: after
 * a 50k-row import the COMMIT would copy the whole transaction (tens of MB) into the database
 * file before any other request is served. The writer turns that off (wal_autocheckpoint = 0)
 * and this worker's own connection runs a PASSIVE checkpoint every CHECKPOINT_MS instead: it
 * never waits for, nor blocks, readers and the writer, and copies only committed frames.
 * Should the worker fail, the writer checkpoints automatically again.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const CHECKPOINT_MS = 1000;

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.libsql);
const db = new Database(workerData.file);
db.exec("PRAGMA busy_timeout = 5000");
const checkpoint = () => {
  try {
    db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // busy or locked: the next round tries again
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on("message", () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export class Checkpointer {
  #worker: Worker;
  #exited: Promise<void>;
  constructor(file: string, onFailure: (err: Error) => void) {
    const libsql = createRequire(import.meta.url).resolve("libsql");
    this.#worker = new Worker(WORKER, { eval: true, workerData: { file, libsql, everyMs: CHECKPOINT_MS } });
    this.#worker.unref();
    this.#worker.on("error", onFailure);
    this.#exited = new Promise((r) => this.#worker.once("exit", () => r()));
  }

  /** Runs a last checkpoint and closes the worker's connection. */
  async stop() {
    this.#worker.ref(); // else the process may end while waiting for an unref'd worker
    this.#worker.postMessage("stop");
    await this.#exited;
  }
}
