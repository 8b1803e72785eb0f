/**
 * Precompresses the built front end's hashed assets (dist/assets) into .br and .gz siblings at build
 * time, so the server (@fastify/static preCompressed) sends them by Accept-Encoding without compressing
 * per request. Used as a vite plugin (vite.config.ts), so `npm run build` and `npm start` produce them.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html|ttf|otf|wasm|map)$/i;
const MIN_BYTES = 512;

/** Writes `<file>.br` and `<file>.gz` for each compressible file of `dir` (recursively) that gets smaller. */
export function precompressDir(dir: string): { files: number; bytes: number; br: number; gz: number } {
  const out = { files: 0, bytes: 0, br: 0, gz: 0 };
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = statSync(path);
      if (st.isDirectory()) {
        walk(path);
        continue;
      }
      if (!COMPRESSIBLE.test(name) || st.size < MIN_BYTES) continue;
      const raw = readFileSync(path);
      const br = brotliCompressSync(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      });
      const gz = gzipSync(raw, { level: 9 });
      if (br.length < raw.length) {
        writeFileSync(path + ".br", br);
        out.br += br.length;
      }
      if (gz.length < raw.length) {
        writeFileSync(path + ".gz", gz);
        out.gz += gz.length;
      }
      out.files++;
      out.bytes += raw.length;
    }
  };
  walk(dir);
  return out;
}

/** Vite plugin: after the bundle is written, precompress `<outDir>/assets`. */
export function precompressPlugin() {
  let outDir = "dist";
  return {
    name: "saiwu-precompress",
    apply: "build" as const,
    configResolved(config: { root: string; build: { outDir: string } }) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const r = precompressDir(join(outDir, "assets"));
      console.log(
        `预压缩：${r.files} 个文件 ${(r.bytes / 1024).toFixed(0)} KB → br ${(r.br / 1024).toFixed(0)} KB, gzip ${(r.gz / 1024).toFixed(0)} KB`,
      );
    },
  };
}
