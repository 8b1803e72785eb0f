/**
 * bench:deadline's baseline: the same attachment sizes written one after another, each to
 * its own file flushed to disk (fsync) as the blob store does, in a directory beside the
 * server's blobs (the same filesystem); the files are removed afterwards. MB/s.
 */
import { mkdir, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { generatedFile } from "./bytes";

export async function sequentialWriteMBps(dir: string, sizes: number[]): Promise<number> {
  if (!sizes.length) return 0;
  await mkdir(dir, { recursive: true });
  let bytes = 0;
  const t0 = performance.now();
  try {
    for (const [i, size] of sizes.entries()) {
      const fh = await open(join(dir, `f${i}`), "wx");
      try {
        for await (const chunk of generatedFile(`disk-${i}`, "zip", size, false).chunks()) await fh.write(chunk);
        await fh.sync();
      } finally {
        await fh.close();
      }
      bytes += size;
      await rm(join(dir, `f${i}`));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return Math.round((bytes / 1048576 / ((performance.now() - t0) / 1000)) * 10) / 10;
}
