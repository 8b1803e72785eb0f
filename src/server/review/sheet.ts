/**
 * The review sheet of one work (/reviewer/reviewDetail/:workId and each step of fast
 * review): its fields, team, attachments and a checklist built from the category's
 * required attachments, the fields submit requires and the team rules; the outcomes the
 * caller may give and the work's format review history. Only a reviewer of the receiving
 * contest, its admins and root see it, and only while the work is in format review.
 */
import { notFound } from "../../shared/errors";
import type { ChecklistItem, ReviewSheet } from "../../shared/review/schema";
import { FIELDS, GROUP_NAMES, type WorkField } from "../../shared/work/fields";
import { canTransition, FORMAT_OUTCOMES, FORMAT_REVIEW_STATES, WORK_STATE_NAMES } from "../../shared/work/states";
import { sizeText } from "../../shared/work/files";
import type { Db } from "../db";
import type { User } from "../db/schema";
import { currentFiles, requirementsOf, toFileView } from "../work/files/repository";
import * as repo from "../work/repository";
import {
  actorFor,
  allAuthorsConfirmed,
  receivingContestId,
  teachersWithin,
  teamFromSchool,
  teamSizeWithin,
  type Relation,
} from "../work/rules";
import { loadVisible } from "../work/service/context";
import { parseAi, toLogEntry, type LogRow } from "../work/view";
import { reasonsOf } from "./service";
import { as404 } from "../judging/service/contest";

const REVIEWERS: Relation[] = ["reviewer", "receiving_contest", "root"];
/** The work-log steps the sheet's history shows: the contest's acceptance and every format review step. */
const HISTORY_ACTIONS = [
  "accept",
  "format_pass",
  "format_return",
  "format_resubmit",
  "format_reject",
  "format_reopen",
  "disqualify",
];
export const NOT_IN_REVIEW = "作品不存在或不在您负责的形式审查中";

/** The text fields shown on the sheet, in the order of the registration form. */
const SHEET_FIELDS: WorkField[] = [
  "summary",
  "designIdea",
  "keyPoints",
  "openSource",
  "installGuide",
  "teacherReview",
  "otherNotes",
  "deployLink1",
  "deployLink2",
];

/** The work, when the caller reviews it now (a reviewer of the receiving contest, its admins, root; in format review); 404 otherwise. */
export async function loadForReview(db: Db, user: User, workId: number) {
  const l = await loadVisible({ db, user }, workId, { format: true }).catch(as404(NOT_IN_REVIEW));
  if (!REVIEWERS.some((r) => l.relations.has(r)) || !FORMAT_REVIEW_STATES.includes(l.work.status)) throw notFound(NOT_IN_REVIEW);
  return l;
}

export async function reviewSheet(db: Db, user: User, workId: number): Promise<ReviewSheet> {
  const l = await loadForReview(db, user, workId);
  const w = l.work;
  const reviewContestId = receivingContestId({ level: w.contest_level, id: w.contest_id, parent_id: w.contest_parent_id });
  const reviewContest = await repo.findContest(db, reviewContestId);

  const requirements = await requirementsOf(db, w.category_id);
  const files = (await currentFiles(db, w.id)).map((f) => toFileView(f, requirements));
  const values: Record<string, string | null> = Object.fromEntries(
    SHEET_FIELDS.map((k) => [k, w[repo.COLUMN[k]] as string | null]),
  );

  const checklist: ChecklistItem[] = [
    ...requirements.map((r) => {
      const f = files.find((x) => x.kind === r.key);
      return {
        key: `file:${r.key}`,
        name: r.name,
        kind: "attachment" as const,
        required: r.required,
        ok: !!f,
        detail: f ? `${f.filename}（${sizeText(f.size)}）` : r.required ? "未上传（必交）" : "未上传",
      };
    }),
    ...(Object.keys(FIELDS) as WorkField[])
      .filter((k) => FIELDS[k].requiredAtSubmit)
      .map((k) => {
        const raw = k === "name" ? w.name : k === "aiDeclaration" ? w.ai_declaration : (w[repo.COLUMN[k]] as string | null);
        const filled = !!String(raw ?? "").trim();
        return {
          key: `field:${k}`,
          name: FIELDS[k].label,
          kind: "field" as const,
          required: true,
          ok: filled,
          detail: filled ? "已填写" : "未填写",
        };
      }),
    ...[
      ["team:size", "作者人数", teamSizeWithin],
      ["team:confirmed", "作者均已确认参赛", allAuthorsConfirmed],
      ["team:teachers", "指导教师人数", teachersWithin],
      ["team:school", "作者和指导教师属于同一学校", teamFromSchool],
    ].map(([key, name, check]) => {
      const why = (check as typeof teamSizeWithin)({ ...l, db, hasSubcategories: false }) as string | null;
      return {
        key: key as string,
        name: name as string,
        kind: "team" as const,
        required: true,
        ok: !why,
        detail: why ?? "符合要求",
      };
    }),
  ];

  const outcomes = FORMAT_OUTCOMES.filter((o) => {
    const actor = actorFor(o, l.relations);
    return actor !== null && canTransition(o, w.status, actor);
  });
  const log = await db
    .selectFrom("work_log")
    .leftJoin("app_user", "app_user.id", "work_log.user_id")
    .select([
      "work_log.id",
      "work_log.work_id",
      "work_log.at",
      "work_log.user_id",
      "app_user.name as user_name",
      "app_user.username",
      "work_log.action",
      "work_log.changes",
    ])
    .where("work_log.work_id", "=", w.id)
    .where("work_log.action", "in", HISTORY_ACTIONS)
    .orderBy("work_log.id")
    .execute();

  return {
    id: w.id,
    version: w.version,
    name: w.name,
    status: w.status,
    // A national entry waiting for review was received by the national contest, not the provincial one.
    statusName: l.entry && w.status === "accepted" ? "国赛已接收" : WORK_STATE_NAMES[w.status],
    contest: { id: w.contest_id, name: w.contest_name },
    reviewContest: { id: reviewContestId, name: reviewContest?.name ?? "" },
    category: { id: w.category_id, name: w.category_name },
    subcategory: w.subcategory_id !== null ? { id: w.subcategory_id, name: w.subcategory_name ?? "" } : null,
    group: w.group_type,
    groupName: GROUP_NAMES[w.group_type],
    school: { id: w.school_id, name: w.school_name },
    authors: l.authors.map((a) => ({ name: a.name, rank: a.rank, majorName: a.major_name, memberNo: a.member_no })),
    teachers: l.teachers.map((t) => ({ name: t.name, rank: t.rank })),
    fields: [
      { key: "name", label: FIELDS.name.label, value: w.name },
      ...SHEET_FIELDS.map((k) => ({ key: k, label: FIELDS[k].label, value: values[k] })),
    ],
    aiDeclaration: parseAi(w.ai_declaration),
    files,
    requirements,
    checklist,
    returnReason: w.return_reason,
    formatReasons: reasonsOf(w.format_reasons),
    formatDeadline: w.format_deadline,
    outcomes,
    history: log.map((r) => toLogEntry(r as LogRow)),
  };
}
