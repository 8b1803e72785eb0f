/**
 * What bench:deadline's people do, call for call as the real screens do it:
 * - a team (students, teacher): the first author logs in and opens 我的作品 (current user,
 *   to-do, the list, the work's drawer: detail, files, log); the co-author logs in and
 *   confirms the invitation; the teacher (every other team) writes the 自评 from 指导作品;
 *   the first author saves 2–3 times, uploads the four attachments (the panel reloads its
 *   list after each) and submits;
 * - a reader: a visitor on the public main page and news, a student on the user centre and
 *   their list, or the contest admin paging the works list;
 * - a school admin: the quotas and the pending list, approving in a batch, then recommending.
 * A flow stops at its first failure (the samples record it); a 409 (someone changed the
 * work) reloads the work and tries again once, as the drawer does.
 */
import type { WorkState } from "../../src/shared/work/states";
import { attachmentSize, generatedFile, multipartBody } from "./bytes";
import type { Ledger } from "./ledger";
import { Person, online, retryAfterMs, type Recorder, type Reply } from "./people";
import { SEED_PASSWORD, type DeadlinePlan, type TeamPlan } from "./seed";

const W = "/Backend/Work/work";
const MB = 1024 * 1024;
/** The kinds of the 2026 package (src/server/seed/reference.ts attachmentsOf) and the file type sent for each. */
const KINDS = [
  { key: "defense", ext: "pdf", mime: "application/pdf" },
  { key: "source", ext: "zip", mime: "application/zip" },
  { key: "docs", ext: "pdf", mime: "application/pdf" },
  { key: "video", ext: "mp4", mime: "video/mp4" },
] as const;

export interface FlowCtx {
  rec: Recorder;
  ledger: Ledger;
  plan: DeadlinePlan;
  step: number;
  /** the server process a new person is routed to */
  base(): string;
  /** uniform in [0, 1) from the bench's seeded stream */
  random(): number;
  /** sessions kept by readers and school admins between visits (username → cookie) */
  sessions: Map<string, string>;
  /** the video of this team is the 200 MB one */
  bigVideo: boolean;
}

const ok = (r: Reply) => r.status >= 200 && r.status < 300;
const person = (c: FlowCtx) => new Person(c.base(), c.rec, c.step);

/** The pages a signed-in person opens first: the session, the to-do (menu badges and user centre). */
async function landing(p: Person): Promise<boolean> {
  return ok(await p.get("read", "/Backend/Common/user/get-current")) && ok(await p.get("read", "/Backend/UserCenter/todo"));
}

/** 我的作品 and the work's drawer; the work's version, or null on a failure. */
async function openWork(p: Person, workId: number): Promise<number | null> {
  if (!ok(await p.get("list", `${W}/mine?pageSize=100&sort=-createdAt`))) return null;
  const w = await p.get("read", `${W}/${workId}`);
  if (!ok(w)) return null;
  if (!ok(await p.get("read", `${W}/${workId}/files`)) || !ok(await p.get("read", `${W}/${workId}/log`))) return null;
  return w.body.data.version as number;
}

/** Sends a change with the work's version; on 409 reloads the work and sends it once more. */
async function withVersion(p: Person, workId: number, version: number, send: (v: number) => Promise<Reply>) {
  const r = await send(version);
  if (r.status !== 409) return r;
  const again = await p.get("read", `${W}/${workId}`);
  return ok(again) ? send(again.body.data.version as number) : again;
}

async function coAuthorConfirms(t: TeamPlan, c: FlowCtx): Promise<boolean> {
  const p = person(c);
  return online(c.rec, async () => {
    if (!(await p.login(t.coAuthor, SEED_PASSWORD, "student")) || !(await landing(p))) return false;
    const v = await openWork(p, t.workId);
    if (v === null) return false;
    const r = await withVersion(p, t.workId, v, (version) =>
      p.call("action", "POST", `${W}/${t.workId}/confirm`, { json: { version }, refusals: [409] }),
    );
    return ok(r);
  });
}

async function teacherReviews(t: TeamPlan, c: FlowCtx): Promise<boolean> {
  const p = person(c);
  return online(c.rec, async () => {
    if (!(await p.login(t.teacher!, SEED_PASSWORD, "teacher")) || !(await landing(p))) return false;
    if (!ok(await p.get("list", "/Backend/Teacher/work?current=1&pageSize=20"))) return false;
    const w = await p.get("read", `${W}/${t.workId}`);
    if (!ok(w)) return false;
    const text = `指导老师自评：该作品选题贴近实际，团队分工明确（${t.workId}）。`;
    const r = await withVersion(p, t.workId, w.body.data.version as number, (version) =>
      p.call("save", "PATCH", `/Backend/Teacher/work/${t.workId}/review`, {
        json: { teacherReview: text, version },
        refusals: [409],
      }),
    );
    if (r.status !== 409) c.ledger.field(t.workId, "teacher_review", text, ok(r));
    return ok(r);
  });
}

/** One save of the drawer's form: the fields it sends; their columns and values for the ledger. */
function saveBody(workId: number, n: number, last: boolean) {
  const fields: Record<string, string | object> = {
    summary: `作品简介（第 ${n} 次保存，${workId}）：面向校园实际需求的设计与实现。`,
    designIdea: `设计思路 ${n}：以用户为中心，分层架构，迭代开发。`,
  };
  if (n > 1) fields.keyPoints = `重点和难点 ${n}：数据处理的稳定性与交互体验。`;
  if (last) fields.aiDeclaration = { used: false, tools: [] };
  return fields;
}
const COLUMNS: Record<string, string> = {
  summary: "summary",
  designIdea: "design_idea",
  keyPoints: "key_points",
  aiDeclaration: "ai_declaration",
};

/** One attachment, sent again (the same bytes) after Retry-After when the server sheds it with 503. */
async function upload(p: Person, c: FlowCtx, t: TeamPlan, kind: (typeof KINDS)[number], size: number): Promise<boolean> {
  let file = generatedFile(`${t.workId}-${kind.key}`, kind.ext, size);
  let r: Reply | undefined;
  for (let attempt = 0; attempt < 3 && (!r || r.status === 503); attempt++) {
    if (r) {
      await new Promise((go) => setTimeout(go, retryAfterMs(r!)));
      file = generatedFile(`${t.workId}-${kind.key}`, kind.ext, size);
    }
    const body = multipartBody(kind.key, `${kind.key}-${t.workId}.${kind.ext}`, kind.mime, file);
    r = await p.call(size > 100 * MB ? "video" : "upload", "POST", `${W}/${t.workId}/files`, {
      body: body.bytes(),
      headers: { "content-type": body.contentType },
      bytes: size,
      // 2 minutes, and more for a large file at 0.5 MB/s (the 200 MB video on a loaded machine).
      timeoutMs: Math.round(120_000 + size / 500),
    });
  }
  if (!r || !ok(r)) return false;
  const f = r.body.data as { id: number; size: number; sha256: string };
  c.ledger.files.push({ workId: t.workId, fileId: f.id, kind: kind.key, size, sha256: file.sha256() });
  return ok(await p.get("read", `${W}/${t.workId}/files`));
}

/** A team's deadline: co-author, teacher, the first author's saves, uploads and submit. */
export async function teamFlow(t: TeamPlan, c: FlowCtx): Promise<boolean> {
  const p = person(c);
  return online(c.rec, async () => {
    if (!(await p.login(t.author, SEED_PASSWORD, "student")) || !(await landing(p))) return false;
    if ((await openWork(p, t.workId)) === null) return false;
    if (!(await coAuthorConfirms(t, c))) return false;
    if (t.teacher && !(await teacherReviews(t, c))) return false;
    let w = await p.get("read", `${W}/${t.workId}`);
    if (!ok(w)) return false;
    let version = w.body.data.version as number;
    const saves = c.random() < 0.5 ? 2 : 3;
    for (let n = 1; n <= saves; n++) {
      const fields = saveBody(t.workId, n, n === saves);
      const r = await withVersion(p, t.workId, version, (v) =>
        p.call("save", "PATCH", `${W}/${t.workId}`, { json: { version: v, ...fields }, refusals: [409] }),
      );
      if (r.status === 409) return false;
      for (const [k, v] of Object.entries(fields))
        c.ledger.field(t.workId, COLUMNS[k], typeof v === "string" ? v : JSON.stringify(v), ok(r));
      if (!ok(r)) return false;
      version = r.body.data.version as number;
    }
    for (const kind of KINDS) {
      const size = kind.key === "video" && c.bigVideo ? 200 * MB : attachmentSize(c.random(), c.random());
      if (!(await upload(p, c, t, kind, size))) return false;
    }
    w = await p.get("read", `${W}/${t.workId}`);
    if (!ok(w)) return false;
    const r = await withVersion(p, t.workId, w.body.data.version as number, (v) =>
      p.call("submit", "POST", `${W}/${t.workId}/submit`, { json: { version: v }, refusals: [409] }),
    );
    if (ok(r)) c.ledger.submits.add(t.workId);
    if (r.status !== 409) c.ledger.state(t.workId, "submitted", ok(r));
    if (!ok(r)) return false;
    return ok(await p.get("read", `${W}/${t.workId}`)) && ok(await p.get("read", "/Backend/UserCenter/todo"));
  });
}

/** A person with a kept session (readers and admins come back), logged in on the first visit. */
async function returning(c: FlowCtx, username: string, page: "student" | "admin"): Promise<Person | null> {
  const p = person(c);
  const cookie = c.sessions.get(username);
  if (cookie) p.cookie = cookie;
  else {
    if (!(await p.login(username, username === "contest_admin" ? "Demo@2026" : SEED_PASSWORD, page))) return null;
    c.sessions.set(username, p.cookie);
  }
  return p;
}

/** One reader's visit: the public pages, a student's user centre and list, or the contest admin's works list. */
export async function readerVisit(c: FlowCtx): Promise<void> {
  const x = c.random();
  await online(c.rec, async () => {
    if (x < 0.4) {
      const p = person(c);
      for (const path of ["/Backend/Common/user/get-current", "/Backend/Public/mainpage/home", "/Backend/Public/mainpage/news"])
        if (!ok(await p.get("read", path))) return;
      return;
    }
    if (x < 0.8) {
      const p = await returning(c, c.plan.readers[Math.floor(c.random() * c.plan.readers.length)], "student");
      if (!p || !(await landing(p))) return;
      await p.get("list", `${W}/mine?pageSize=100&sort=-createdAt`);
      return;
    }
    const p = await returning(c, "contest_admin", "admin");
    if (!p || !(await landing(p))) return;
    const page = 1 + Math.floor(c.random() * 20);
    await p.get(
      "list",
      `/Backend/Admin/work?status=submitted&status=school_approved&sort=-submittedAt&current=${page}&pageSize=20`,
    );
  });
}

/** A school admin's batch: quotas and the pending list, approve what is pending, recommend what is approved. */
export async function schoolBatch(schoolId: number, c: FlowCtx, batch = 10): Promise<void> {
  await online(c.rec, async () => {
    const p = await returning(c, c.plan.schoolAdmins.get(schoolId)!, "admin");
    if (!p || !(await landing(p))) return;
    if (!ok(await p.get("read", "/Backend/School/work/quota"))) return;
    const steps: [WorkState, "approve" | "recommend", WorkState][] = [
      ["submitted", "approve", "school_approved"],
      ["school_approved", "recommend", "recommended"],
    ];
    for (const [from, action, to] of steps) {
      const list = await p.get("list", `/Backend/School/work?status=${from}&sort=-id&current=1&pageSize=20`);
      if (!ok(list)) return;
      for (const w of (list.body.data.list as { id: number; version: number }[]).slice(0, batch)) {
        // 400/403: a quota or a window the server refuses with its message; 409: changed meanwhile.
        const r = await p.call("action", "POST", `/Backend/School/work/${w.id}/${action}`, {
          json: { version: w.version },
          refusals: [400, 403, 409],
        });
        if (ok(r) || r.status === 0 || r.status >= 500) c.ledger.state(w.id, to, ok(r));
      }
    }
  });
}
