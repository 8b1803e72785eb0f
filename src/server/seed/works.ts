/**
 * Generates many realistic works for benchmarks and demos (`npm run seed -- --works N`):
 * Chinese titles, teams of 2–5 new students of one school (each author at most one work
 * per 大类), up to two teachers of the school, varied states with their log entries, in
 * each school's provincial contest of the year (created when missing; schools with their
 * own school contest are left out, as they enter through it). Written in batches,
 * one transaction per batch, ids from the year's sequence. Deterministic for a seed.
 */
import { sql, type Insertable, type Transaction } from "kysely";
import type { Db } from "../db/index";
import type { DB, WorkStatus } from "../db/schema";
import { appendLog, nextWorkIds, type LogEntry } from "../work/repository";
import { demoStages } from "./contest-demo";
import { MAJORS } from "./reference";
import { personName, rng, workTitle, type Rng } from "./generate";
import { demoUserRow, demoWorkRow } from "./demo-helpers";
import { requiredGroup } from "../../shared/work/group-rule";

const BATCH = 2000;
/** How often each state is generated (per mille). */
const STATE_SHARE: [WorkStatus, number][] = [
  ["draft", 100],
  ["submitted", 200],
  ["returned", 50],
  ["school_approved", 200],
  ["recommended", 150],
  ["accepted", 140],
  ["format_passed", 100],
  ["format_returned", 20],
  ["format_resubmitted", 5],
  ["format_rejected", 15],
  ["disqualified", 20],
];
/** The steps of the log that lead to each state. */
const STEPS: Record<WorkStatus, [string, WorkStatus, WorkStatus][]> = (() => {
  const path: [string, WorkStatus, WorkStatus][] = [
    ["submit", "draft", "submitted"],
    ["approve", "submitted", "school_approved"],
    ["recommend", "school_approved", "recommended"],
    ["accept", "recommended", "accepted"],
  ];
  const upTo = (s: WorkStatus) => path.slice(0, path.findIndex((p) => p[2] === s) + 1);
  return {
    draft: [],
    submitted: upTo("submitted"),
    returned: [...upTo("submitted"), ["return", "submitted", "returned"]],
    school_approved: upTo("school_approved"),
    recommended: upTo("recommended"),
    accepted: upTo("accepted"),
    format_returned: [...upTo("accepted"), ["format_return", "accepted", "format_returned"]],
    format_resubmitted: [
      ...upTo("accepted"),
      ["format_return", "accepted", "format_returned"],
      ["format_resubmit", "format_returned", "format_resubmitted"],
    ],
    format_passed: [...upTo("accepted"), ["format_pass", "accepted", "format_passed"]],
    format_rejected: [...upTo("accepted"), ["format_reject", "accepted", "format_rejected"]],
    disqualified: [...upTo("submitted"), ["disqualify", "submitted", "disqualified"]],
  };
})();

export interface GenerateOptions {
  count: number;
  seed: number;
  year: number;
  passwordHash: string;
  /** progress after each batch */
  onBatch?: (done: number) => void;
}

/** The provincial contest of the year for every province with schools (created when missing). */
async function provincialContests(db: Db, year: number, provinces: string[]): Promise<Map<string, number>> {
  const now = new Date().toISOString();
  const categories = JSON.stringify(
    (
      await db
        .selectFrom("work_category")
        .select("id")
        .where("parent_id", "is", null)
        .where("archived", "=", 0)
        .orderBy("sort")
        .execute()
    ).map((c) => c.id),
  );
  let national = await db
    .selectFrom("contest")
    .select("id")
    .where("level", "=", "national")
    .where("year", "=", year)
    .executeTakeFirst();
  if (!national) {
    national = await db
      .insertInto("contest")
      .values({
        name: `${year}年中国大学生计算机设计大赛`,
        level: "national",
        year,
        parent_id: null,
        province: null,
        school_id: null,
        created_at: now,
        updated_at: now,
        categories,
        code: `${year}-CN`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  }
  const out = new Map(
    (
      await db
        .selectFrom("contest")
        .select(["id", "province"])
        .where("level", "=", "provincial")
        .where("year", "=", year)
        .where("archived", "=", 0)
        .execute()
    ).map((c) => [c.province!, c.id]),
  );
  for (const [i, province] of provinces.filter((p) => !out.has(p)).entries()) {
    const { id } = await db
      .insertInto("contest")
      .values({
        name: `${year}年中国大学生计算机设计大赛${province.replace(/省|市$/, "")}赛区`,
        level: "provincial",
        year,
        parent_id: national.id,
        province,
        school_id: null,
        created_at: now,
        updated_at: now,
        categories,
        recommend_quota: 200,
        code: `${year}-G${Date.now().toString(36)}${i}`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("contest_stage")
      .values(demoStages(year).map((s) => ({ contest_id: id, stage: s.stage, starts_at: s.startsAt, ends_at: s.endsAt })))
      .execute();
    out.set(province, id);
  }
  return out;
}

function pickState(r: Rng): WorkStatus {
  let x = r.int(0, 999);
  for (const [s, share] of STATE_SHARE) if ((x -= share) < 0) return s;
  return "draft";
}

interface Member {
  username: string;
  /** 大类 the student already has a work in */
  taken: Set<number>;
  major: string;
}

/** What every batch draws from: the schools, their provincial contests, the 大类 and their 小类, the majors. */
interface World {
  schools: { id: number; province: string }[];
  contests: Map<string, number>;
  tops: { id: number; has_professional_group: number; professional_majors: string }[];
  subsOf: Map<number, number[]>;
  majors: string[];
}

/** The state carried from batch to batch: the random stream, recent students and the teachers of each school. */
interface Generator {
  r: Rng;
  o: GenerateOptions;
  tag: string;
  now: string;
  pools: Map<number, Member[]>;
  teachers: Map<number, string[]>;
  people: number;
}

/** One work to write: its school, 大类/小类, team, teachers, state and title. */
interface WorkPlan {
  school: World["schools"][number];
  top: World["tops"][number];
  sub: number | null;
  team: Member[];
  advisers: string[];
  professional: boolean;
  status: WorkStatus;
  title: string;
}

/** Generates `count` works; returns how many were written. */
export async function generateWorks(db: Db, o: GenerateOptions): Promise<number> {
  const r = rng(o.seed);
  const world = await loadWorld(db, o.year);
  const g: Generator = {
    r,
    o,
    tag: `${o.seed}${Date.now().toString(36)}`,
    now: new Date().toISOString(),
    pools: new Map(),
    teachers: new Map(),
    people: 0,
  };
  let written = 0;
  for (let start = 0; start < o.count; start += BATCH) {
    const n = Math.min(BATCH, o.count - start);
    const { newUsers, plans } = planBatch(g, world, n);
    await db.transaction().execute((trx) => writeBatch(trx, g, world, newUsers, plans));
    written += n;
    o.onBatch?.(written);
  }
  // Fresh statistics, so the list queries get their plans right away.
  await sql`analyze`.execute(db);
  return written;
}

async function loadWorld(db: Db, year: number): Promise<World> {
  // Schools that run their own school contest enter through it (within its quota): left out here.
  const schools = await db
    .selectFrom("school")
    .select(["school.id", "school.province"])
    .where("school.archived", "=", 0)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("contest")
            .select("contest.id")
            .whereRef("contest.school_id", "=", "school.id")
            .where("contest.level", "=", "school")
            .where("contest.year", "=", year),
        ),
      ),
    )
    .orderBy("school.id")
    .execute();
  if (!schools.length) throw new Error("没有学校：请先生成学校（--schools N）");
  const contests = await provincialContests(db, year, [...new Set(schools.map((s) => s.province))]);
  const cats = await db
    .selectFrom("work_category")
    .select(["id", "parent_id", "has_professional_group", "professional_majors"])
    .where("archived", "=", 0)
    .execute();
  const tops = cats.filter((c) => c.parent_id === null);
  const subsOf = new Map(tops.map((t) => [t.id, cats.filter((c) => c.parent_id === t.id).map((c) => c.id)]));
  return { schools, contests, tops, subsOf, majors: MAJORS.map((m) => m.code) };
}

/** Draws a batch of works and the new accounts their teams and teachers need. */
function planBatch(g: Generator, world: World, n: number): { newUsers: Insertable<DB["app_user"]>[]; plans: WorkPlan[] } {
  const { r, o, tag, now, pools, teachers } = g;
  const newUsers: Insertable<DB["app_user"]>[] = [];
  const person = (schoolId: number, type: 99 | 100) => {
    const username = `${type === 100 ? "gs" : "gt"}${tag}_${g.people++}`;
    const major = r.pick(world.majors);
    newUsers.push(
      demoUserRow(
        {
          username,
          name: personName(r),
          type,
          schoolId,
          memberNo: String(2022000000 + g.people),
          major: type === 100 ? major : null,
          email: `${username}@seed.saiwu.local`,
        },
        o.passwordHash,
        now,
      ),
    );
    return { username, major };
  };
  const plans = Array.from({ length: n }, (): WorkPlan => {
    const school = r.pick(world.schools);
    const top = r.pick(world.tops);
    const pool = pools.get(school.id) ?? [];
    pools.set(school.id, pool);
    const size = r.int(2, 5);
    const team: Member[] = [];
    // Reuse a few recent students of the school who have no work in this 大类; otherwise new ones.
    for (let k = 0; k < 6 && team.length < size && pool.length; k++) {
      const m = pool[pool.length - 1 - r.int(0, Math.min(pool.length - 1, 30))];
      if (!m.taken.has(top.id) && !team.includes(m) && r.next() < 0.5) team.push(m);
    }
    while (team.length < size) {
      const p = person(school.id, 100);
      const m = { username: p.username, taken: new Set<number>(), major: p.major };
      pool.push(m);
      team.push(m);
    }
    team.forEach((m) => m.taken.add(top.id));
    if (pool.length > 200) pool.splice(0, pool.length - 200);
    const ts = teachers.get(school.id) ?? [];
    teachers.set(school.id, ts);
    if (ts.length < 12 && (ts.length < 2 || r.next() < 0.1)) ts.push(person(school.id, 99).username);
    const tCount = r.int(0, 2);
    const advisers = [...new Set(Array.from({ length: tCount }, () => r.pick(ts)))];
    // The 专业组 rule submit applies (src/shared/work/group-rule.ts): any author of a 专业组 major.
    const professional =
      requiredGroup(
        {
          name: "",
          hasProfessionalGroup: !!top.has_professional_group,
          professionalMajors: JSON.parse(top.professional_majors) as string[],
        },
        team.map((m) => ({ name: m.username, majorCode: m.major })),
      ) === "professional";
    const subs = world.subsOf.get(top.id) ?? [];
    return {
      school,
      top,
      sub: subs.length ? r.pick(subs) : null,
      team,
      advisers,
      professional,
      status: pickState(r),
      title: workTitle(r),
    };
  });
  return { newUsers, plans };
}

/** Writes one batch in its transaction: the new accounts, the works, their authors, teachers and log. */
async function writeBatch(
  trx: Transaction<DB>,
  g: Generator,
  world: World,
  newUsers: Insertable<DB["app_user"]>[],
  plans: WorkPlan[],
) {
  const ids = await userIds(trx, newUsers, plans);
  const workIds = await nextWorkIds(trx, g.o.year, plans.length);
  const rows = workRows(g, world, plans, workIds, ids);
  const names = new Map(newUsers.map((u) => [u.username, u.name]));
  const nameOf = async (usernames: string[]) => {
    const unknown = usernames.filter((u) => !names.has(u));
    for (let i = 0; i < unknown.length; i += 500)
      for (const u of await trx
        .selectFrom("app_user")
        .select(["username", "name"])
        .where("username", "in", unknown.slice(i, i + 500))
        .execute())
        names.set(u.username, u.name);
  };
  await nameOf(plans.flatMap((p) => [...p.team.map((m) => m.username), ...p.advisers]));
  plans.forEach((p, i) => {
    rows.works[i].author_names = p.team.map((m) => names.get(m.username)).join("、");
    rows.works[i].teacher_names = p.advisers.map((u) => names.get(u)).join("、");
  });
  for (let i = 0; i < rows.works.length; i += 400)
    await trx
      .insertInto("work")
      .values(rows.works.slice(i, i + 400))
      .execute();
  for (let i = 0; i < rows.authors.length; i += 1000)
    await trx
      .insertInto("work_author")
      .values(rows.authors.slice(i, i + 1000))
      .execute();
  for (let i = 0; i < rows.advisers.length; i += 1000)
    await trx
      .insertInto("work_teacher")
      .values(rows.advisers.slice(i, i + 1000))
      .execute();
  await appendLog(trx, rows.logs);
}

/** Inserts the new accounts and finds the ids of every member and teacher of the batch (by username). */
async function userIds(trx: Transaction<DB>, newUsers: Insertable<DB["app_user"]>[], plans: WorkPlan[]) {
  const ids = new Map<string, number>();
  for (let i = 0; i < newUsers.length; i += 500) {
    for (const u of await trx
      .insertInto("app_user")
      .values(newUsers.slice(i, i + 500))
      .returning(["id", "username"])
      .execute())
      ids.set(u.username, u.id);
  }
  const missing = [...new Set(plans.flatMap((p) => [...p.team.map((m) => m.username), ...p.advisers]))].filter(
    (u) => !ids.has(u),
  );
  for (let i = 0; i < missing.length; i += 500) {
    for (const u of await trx
      .selectFrom("app_user")
      .select(["id", "username"])
      .where("username", "in", missing.slice(i, i + 500))
      .execute())
      ids.set(u.username, u.id);
  }
  return ids;
}

/** The rows of a batch's works (names filled in later), authors, teachers and log entries. */
function workRows(g: Generator, world: World, plans: WorkPlan[], workIds: number[], ids: Map<string, number>) {
  const { r, o, now } = g;
  const works: Insertable<DB["work"]>[] = [];
  const authors: Insertable<DB["work_author"]>[] = [];
  const advisers: Insertable<DB["work_teacher"]>[] = [];
  const logs: LogEntry[] = [];
  plans.forEach((p, i) => {
    const id = workIds[i];
    const first = ids.get(p.team[0].username)!;
    const done = p.status !== "draft";
    const text = {
      summary: `${p.title}：面向实际需求设计的作品，完成了需求分析、设计、实现与测试。`,
      design_idea: done ? "以用户需求为中心，采用分层架构和迭代开发。" : null,
      key_points: done ? "重点在核心功能的稳定性，难点在数据处理与交互体验。" : null,
    };
    const returnReason =
      p.status === "returned"
        ? "请补充作品简介"
        : p.status === "format_returned" || p.status === "format_resubmitted"
          ? "请补充作品演示视频"
          : p.status === "format_rejected"
            ? "材料缺失，逾期未补充"
            : null;
    const row = demoWorkRow(
      id,
      {
        year: o.year,
        contestId: world.contests.get(p.school.province)!,
        categoryId: p.top.id,
        subcategoryId: p.sub,
        groupType: p.professional ? "professional" : "normal",
        name: p.title,
        status: p.status,
        schoolId: p.school.id,
        text,
        ai: done ? { used: false, tools: [] } : null,
        returnReason,
        disqualifyReason: p.status === "disqualified" ? "与其他作品雷同" : null,
        version: 1 + STEPS[p.status].length,
        at: now,
      },
      first,
    );
    works.push({
      ...row,
      format_reasons:
        p.status.startsWith("format_") && p.status !== "format_passed" ? JSON.stringify(["missing_material"]) : null,
      format_deadline:
        p.status === "format_returned" || p.status === "format_resubmitted"
          ? new Date(Date.now() + 7 * 86_400_000).toISOString()
          : null,
      author_names: "",
      teacher_names: "",
    });
    p.team.forEach((m, k) =>
      authors.push({
        work_id: id,
        user_id: ids.get(m.username)!,
        rank: k + 1,
        confirmed: done || k === 0 || r.next() < 0.7 ? 1 : 0,
        category_id: p.top.id,
        year: o.year,
        created_at: now,
      }),
    );
    p.advisers.forEach((u, k) => advisers.push({ work_id: id, user_id: ids.get(u)!, rank: k + 1, created_at: now }));
    logs.push({ workId: id, userId: first, action: "create", changes: { status: [null, "draft"], name: [null, p.title] } });
    for (const [action, from, to] of STEPS[p.status])
      logs.push({ workId: id, userId: action === "submit" ? first : null, action, changes: { status: [from, to] } });
  });
  return { works, authors, advisers, logs };
}
