#!/usr/bin/env node
/**
 * `npm start`, `npm run start:cluster`, `npm run migrate` and the other commands of package.json:
 * `node scripts/run.mjs <entry> [args…]` runs the compiled server entry dist/server/<entry>.js
 * with plain node (no TypeScript loader), after building what is missing or older than its
 * sources (scripts/build.mjs; SKIP_BUILD=1 skips that check). In production, systemd or a
 * container may run `node dist/server/<entry>.js` directly instead.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildIfNeeded, SERVER_ENTRIES, SERVER_OUT } from "./build.mjs";

const MIN_NODE = [22, 12];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
  console.error(`赛务平台需要 Node.js ${MIN_NODE.join(".")} 或更高版本（推荐 24 LTS），当前为 ${process.version}`);
  process.exit(1);
}

/**
 * Node's own flags for every server process, set here only (package.json's scripts and the systemd unit run this
 * file). --max-semi-space-size=8: Node sizes the young generation by the machine's memory (64 MiB semi-spaces on a
 * large server); 8 MiB keeps an idle process and a certificate batch well lower at no measured cost in requests
 * served per CPU second (docs/performance.md). Without them on the command line the process replaces itself with
 * one that has them (process.execve: same process id, so systemd and `npm start` see no difference); a Node without
 * execve runs on without them.
 */
const NODE_FLAGS = ["--max-semi-space-size=8"];
if (NODE_FLAGS.some((f) => !process.execArgv.includes(f)) && typeof process.execve === "function") {
  const flags = [...process.execArgv, ...NODE_FLAGS.filter((f) => !process.execArgv.includes(f))];
  process.execve(process.execPath, [process.execPath, ...flags, ...process.argv.slice(1)], process.env);
}

const [name, ...rest] = process.argv.slice(2);
if (!Object.hasOwn(SERVER_ENTRIES, name ?? "")) {
  console.error(`用法：node scripts/run.mjs <${Object.keys(SERVER_ENTRIES).join("|")}> [参数…]`);
  process.exit(2);
}
if (process.env.SKIP_BUILD !== "1") {
  try {
    // The front end is built for the commands that serve it.
    await buildIfNeeded({ server: true, client: name === "main" || name === "cluster" });
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
const entry = join(SERVER_OUT, `${name}.js`);
// The entry sees the command line it would have had when started directly (node cluster
// forks process.argv[1] as the workers' script).
process.argv.splice(1, process.argv.length - 1, entry, ...rest);
await import(pathToFileURL(entry).href);
