/**
 * A local S3-compatible server (s3rver, a dev dependency) for the S3 blob driver's tests:
 * started in a child process on a free port of 127.0.0.1 with a temporary directory, and the
 * environment that points the app at it (STORAGE_DRIVER=s3 …).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** s3rver's storage directory (<dir>/<bucket>/<key>._S3rver_object) */
  dir: string;
  /** STORAGE_DRIVER=s3 and the S3_* settings for loadConfig / makeApp({ env }) */
  env(prefix?: string): Record<string, string>;
  /** Backdates an object's stored time (s3rver takes LastModified from the file's mtime). */
  age(key: string, hours: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3(bucket = "saiwu-test"): Promise<LocalS3> {
  const dir = mkdtempSync(join(tmpdir(), "s3rver-"));
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", fileURLToPath(new URL("./s3rver-process.cjs", import.meta.url)), dir, bucket],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`s3rver exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line).port));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    dir,
    env: (prefix = "") => ({
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY: "S3RVER",
      S3_SECRET_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "1",
      S3_PREFIX: prefix,
    }),
    async age(key, hours) {
      const at = new Date(Date.now() - hours * 3600_000);
      await utimes(join(dir, bucket, `${key}._S3rver_object`), at, at);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
