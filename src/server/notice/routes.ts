/** The explanation text of a works page, for any logged-in user. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { invalid, notFound } from "../../shared/errors";
import { EXPLANATION_SECTIONS, noticeSection } from "../../shared/notice/sections";
import { SectionText } from "../../shared/notice/schema";
import type { Db } from "../db";
import { MAX_ID } from "../../shared/bounds";

const tags = ["公告与说明"];

/** The contest and its ancestors, nearest first. */
async function contestChain(db: Db, contestId: number): Promise<number[] | undefined> {
  const chain: number[] = [];
  let id: number | null = contestId;
  while (id !== null && !chain.includes(id)) {
    const row: { id: number; parent_id: number | null } | undefined = await db
      .selectFrom("contest")
      .select(["id", "parent_id"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) break;
    chain.push(row.id);
    id = row.parent_id;
  }
  return chain.length ? chain : undefined;
}

export function noticeRoutes(app: FastifyInstance, db: Db) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    "/Backend/Common/notice/section/:section",
    {
      schema: {
        tags,
        summary: "某栏目的说明文字：先取该赛事的，没有则依次取上级赛事的，最后取全平台的",
        params: Type.Object({ section: Type.String({ maxLength: 40, title: "栏目" }) }),
        querystring: Type.Object({ contestId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, title: "赛事" })) }),
        response: { 200: Envelope(SectionText) },
      },
      config: { access: ["api.announcement", "read"] },
    },
    async (req) => {
      const { section } = req.params;
      const def = noticeSection(section);
      if (!def || def.kind !== "explanation") {
        throw invalid(
          "section",
          `栏目「${section}」不是说明栏目，可选：${EXPLANATION_SECTIONS.map((s) => `${s.key}（${s.name}）`).join("、")}`,
        );
      }
      const chain = req.query.contestId ? await contestChain(db, req.query.contestId) : [];
      if (!chain) throw notFound("赛事不存在");
      const rows = await db
        .selectFrom("notice")
        .select(["contest_id", "title", "content", "updated_at"])
        .where("section", "=", section)
        .where((eb) =>
          chain.length ? eb.or([eb("contest_id", "in", chain), eb("contest_id", "is", null)]) : eb("contest_id", "is", null),
        )
        .execute();
      const rank = (c: number | null) => (c === null ? chain.length : chain.indexOf(c));
      const row = rows.sort((a, b) => rank(a.contest_id) - rank(b.contest_id))[0];
      return {
        error: 0,
        info: "成功",
        data: row
          ? {
              section,
              sectionName: def.name,
              contestId: row.contest_id,
              title: row.title,
              content: row.content,
              updatedAt: row.updated_at,
            }
          : { section, sectionName: def.name, contestId: null, title: def.name, content: "", updatedAt: null },
      };
    },
  );
}
