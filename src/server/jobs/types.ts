/** The task queue's interface that both drivers (table-queue.ts, pg-queue.ts) implement and the app uses. */
import type { Dialect } from "../db";

export type TaskHandler = (data: Record<string, unknown>) => Promise<void>;

export interface TaskQueue {
  /** This process's name as a worker: `<pid>@<host>/<random>`. */
  readonly workerId: string;
  readonly dialect: Dialect;
  /** Handles the tasks of `name` in this process, up to `concurrency` at a time. A thrown error retries the task (a few times). */
  work(name: string, handler: TaskHandler, opts?: { concurrency?: number }): Promise<void>;
  /** Queues a task for whichever process takes it first. */
  send(name: string, data: Record<string, unknown>): Promise<void>;
  /** Runs `handler` once every `seconds` across all processes (each slot once, whichever process claims it). */
  every(name: string, seconds: number, handler: () => Promise<void>): Promise<void>;
  /** Stops taking tasks; waits a little for running ones. */
  stop(): Promise<void>;
}
