/**
 * /ContestAdmin/Group on the server: judging settings, the contest's judges, judge groups
 * with their judges and works, and the works to judge. Contest admins (own contests and
 * their children) and root; any other contest or group answers 404.
 * Registered by one plugin in three route groups: the contest's settings, judges and works
 * to judge; the groups themselves; the judges and works of a group.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../../shared/envelope";
import { ListParams, Page } from "../../../shared/crud/list";
import {
  AutoGroupBody,
  AutoGroupResult,
  ContestJudge,
  ContestParam,
  GroupMemberParam,
  GroupParam,
  GroupWorkParam,
  JudgeGroupCreate,
  JudgeGroupUpdate,
  JudgeGroupView,
  JudgingSettings,
  JudgingSettingsBody,
  PoolFilters,
  PoolWork,
  UserIdsBody,
  WorkIdsBody,
} from "../../../shared/judging/schema";
import type { Db } from "../../db";
import { record } from "../../common/audit";
import { requireManagedContest, saveSettings, settingsOf } from "../service/contest";
import { addJudges, createGroup, deleteGroup, listGroups, removeJudge, updateGroup } from "../service/groups";
import { addWorks, autoGroup, listContestJudges, listPool, removeWork } from "../service/group-works";
import { ok } from "../../common/http";

export const A = "/Backend/ContestAdmin/judging";
const tags = ["评审分组"];
const acc = (act: "read" | "create" | "update" | "delete") => ["api.judgeGroups", act] as const;

/** The contest's judging settings, its judges and the works to judge. */
function contestRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    `${A}/:contestId/settings`,
    {
      schema: {
        tags,
        summary: "评审设置：每件作品评审次数（默认 3）、每位评委最多作品数、回避本省（国赛选项）",
        params: ContestParam,
        response: { 200: Envelope(JudgingSettings) },
      },
      config: { access: acc("read") },
    },
    async (req) => {
      const c = await requireManagedContest(db, req.user!, req.params.contestId);
      return ok(await settingsOf(db, c.id));
    },
  );

  r.put(
    `${A}/:contestId/settings`,
    {
      schema: {
        tags,
        summary: "修改评审设置",
        params: ContestParam,
        body: JudgingSettingsBody,
        response: { 200: Envelope(JudgingSettings) },
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const data = await db.transaction().execute(async (trx) => {
        const c = await requireManagedContest(trx, req.user!, req.params.contestId);
        const before = await settingsOf(trx, c.id);
        const b = req.body;
        const after = {
          reviewsPerWork: b.reviewsPerWork ?? before.reviewsPerWork,
          judgeCapacity: b.judgeCapacity !== undefined ? b.judgeCapacity : before.judgeCapacity,
          avoidProvince: b.avoidProvince ?? before.avoidProvince,
        };
        await saveSettings(trx, c.id, after, req.user!.id);
        await record(trx, req.user!.id, {
          entity: "judging_setting",
          entityId: c.id,
          action: "update",
          changes: Object.fromEntries(
            Object.entries(after)
              .filter(([k, v]) => before[k as keyof typeof before] !== v)
              .map(([k, v]) => [k, [before[k as keyof typeof before], v]]),
          ) as Record<string, [unknown, unknown]>,
        });
        return after;
      });
      return ok(data, "评审设置已保存");
    },
  );

  r.get(
    `${A}/:contestId/judges`,
    {
      schema: {
        tags,
        summary: "本赛事的评委：学校、省份、所在评审组、已分配作品数、申报回避数",
        params: ContestParam,
        response: { 200: Envelope(Type.Array(ContestJudge)) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await listContestJudges(db, req.user!, req.params.contestId)),
  );

  r.get(
    `${A}/:contestId/works`,
    {
      schema: {
        tags,
        summary:
          "本赛事的评审作品（省级及以上为形式审查通过的作品）：所在评审组和已分配评委；可筛选评审组、未分组、大类、关键词、评委不足",
        params: ContestParam,
        querystring: Type.Intersect([ListParams, PoolFilters]),
        response: { 200: Envelope(Page(PoolWork)) },
      },
      config: { access: acc("read") },
    },
    async (req) => {
      const {
        current,
        pageSize,
        sort: _s,
        ...filters
      } = req.query as { current?: number; pageSize?: number; sort?: string[] } & PoolFilters;
      const size = pageSize ?? 20;
      return ok(await listPool(db, req.user!, req.params.contestId, filters, ((current ?? 1) - 1) * size, size));
    },
  );
}

/** The judge groups: list, create, change, delete. */
function groupCrudRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    `${A}/:contestId/groups`,
    {
      schema: {
        tags,
        summary: "评审组列表：类别范围、评委、作品数、分配数",
        params: ContestParam,
        response: { 200: Envelope(Type.Array(JudgeGroupView)) },
      },
      config: { access: acc("read") },
    },
    async (req) => ok(await listGroups(db, req.user!, req.params.contestId)),
  );

  r.post(
    `${A}/:contestId/groups`,
    {
      schema: {
        tags,
        summary: "新建评审组（大类，可选小类和普通/专业组）",
        params: ContestParam,
        body: JudgeGroupCreate,
        response: { 201: Envelope(JudgeGroupView) },
      },
      config: { access: acc("create") },
    },
    async (req, reply) => {
      const data = await createGroup(db, req.user!, req.params.contestId, req.body);
      return reply.code(201).send(ok(data, `评审组「${data.name}」已创建`));
    },
  );

  r.patch(
    `${A}/group/:groupId`,
    {
      schema: {
        tags,
        summary: "修改评审组（已有作品时不能修改类别）",
        params: GroupParam,
        body: JudgeGroupUpdate,
        response: { 200: Envelope(JudgeGroupView) },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await updateGroup(db, req.user!, req.params.groupId, req.body), "评审组已保存"),
  );

  r.delete(
    `${A}/group/:groupId`,
    {
      schema: { tags, summary: "删除评审组（已有评委分配时不能删除）", params: GroupParam },
      config: { access: acc("delete") },
    },
    async (req) => {
      await deleteGroup(db, req.user!, req.params.groupId);
      return { error: 0, info: "评审组已删除" };
    },
  );
}

/** The judges and works of a group: add and remove; automatic grouping of works by category. */
function groupMemberRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    `${A}/group/:groupId/judges`,
    {
      schema: {
        tags,
        summary: "向评审组添加评委（须是本赛事的评委）",
        params: GroupParam,
        body: UserIdsBody,
        response: { 200: Envelope(JudgeGroupView) },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await addJudges(db, req.user!, req.params.groupId, req.body.userIds), "评委已加入评审组"),
  );

  r.delete(
    `${A}/group/:groupId/judges/:userId`,
    {
      schema: {
        tags,
        summary: "从评审组移除评委（在本组有分配时须先移除或替换分配）",
        params: GroupMemberParam,
        response: { 200: Envelope(JudgeGroupView) },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await removeJudge(db, req.user!, req.params.groupId, req.params.userId), "评委已移出评审组"),
  );

  r.post(
    `${A}/:contestId/group-works/auto`,
    {
      schema: {
        tags,
        summary: "按类别自动把作品分入评审组（最具体的匹配优先，同类多组时均分）",
        params: ContestParam,
        body: AutoGroupBody,
        response: { 200: Envelope(AutoGroupResult) },
      },
      config: { access: acc("update") },
    },
    async (req) => {
      const data = await autoGroup(db, req.user!, req.params.contestId, !!req.body.regroup);
      return ok(
        data,
        `已分组 ${data.grouped} 件作品${data.unmatched.length ? `，${data.unmatched.length} 件作品没有匹配的评审组` : ""}`,
      );
    },
  );

  r.post(
    `${A}/group/:groupId/works`,
    {
      schema: {
        tags,
        summary: "手动把作品分入评审组（从其他组移入；已分配评委的作品不能移动）",
        params: GroupParam,
        body: WorkIdsBody,
        response: { 200: Envelope(JudgeGroupView) },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await addWorks(db, req.user!, req.params.groupId, req.body.workIds), "作品已分入评审组"),
  );

  r.delete(
    `${A}/group/:groupId/works/:workId`,
    {
      schema: {
        tags,
        summary: "把作品移出评审组（已分配评委时须先移除分配）",
        params: GroupWorkParam,
        response: { 200: Envelope(JudgeGroupView) },
      },
      config: { access: acc("update") },
    },
    async (req) => ok(await removeWork(db, req.user!, req.params.groupId, req.params.workId), "作品已移出评审组"),
  );
}

export function groupRoutes(app: FastifyInstance, db: Db) {
  contestRoutes(app, db);
  groupCrudRoutes(app, db);
  groupMemberRoutes(app, db);
}
