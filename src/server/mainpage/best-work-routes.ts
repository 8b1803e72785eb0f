/**
 * The root's /admin/BestWork API (/Backend/Admin/best-work…, casbin api.bestWork): the best works
 * chosen from awarded works, their order, texts, publication and covers. Registered from routes.ts.
 */
import { Type } from "typebox";
import { Envelope, EmptyEnvelope } from "../../shared/envelope";
import { Page } from "../../shared/crud/list";
import {
  BestWorkAdmin,
  BestWorkCreate,
  BestWorkOrder,
  BestWorkUpdate,
  Candidate,
  CandidateQuery,
  IdParam,
} from "../../shared/mainpage/schema";
import { receiveImage } from "../storage/image-upload";
import { type AccessRule } from "../../shared/access";
import {
  COVER_MAX_BYTES,
  addBest,
  adminCover,
  candidates,
  listBest,
  orderBest,
  removeBest,
  setCover,
  updateBest,
} from "./best-work";
import { closeIfUnread } from "../plugins/uploads";
import { ok } from "../common/http";
import { adminTags, ADM, type MainpageRouteKit } from "./route-kit";

/** Listing, candidates, selecting, ordering, editing, removing, cover upload and download. */
export function bestWorkAdminRoutes(kit: MainpageRouteKit) {
  const { r, db, store } = kit;
  const read = { access: ["api.bestWork", "read"] as AccessRule };
  const write = { access: ["api.bestWork", "update"] as AccessRule };

  r.get(
    ADM,
    {
      schema: {
        tags: adminTags,
        summary: "全部优秀作品（含未发布的），按顺序",
        response: { 200: Envelope(Type.Array(BestWorkAdmin)) },
      },
      config: read,
    },
    async () => ok(await listBest(db)),
  );

  r.get(
    `${ADM}/candidates`,
    {
      schema: {
        tags: adminTags,
        summary: "可选的作品：已发布结果的获奖作品，可按赛事、大类、奖项筛选",
        querystring: CandidateQuery,
        response: { 200: Envelope(Page(Candidate)) },
      },
      config: read,
    },
    async (req) => ok(await candidates(db, req.query)),
  );

  r.post(
    ADM,
    {
      schema: {
        tags: adminTags,
        summary: "选入优秀作品（作品须有已发布的奖项；选入后为未发布）",
        body: BestWorkCreate,
        response: { 200: Envelope(BestWorkAdmin), 409: EmptyEnvelope },
      },
      config: write,
    },
    async (req) => ok(await addBest(db, req.user!.id, req.body.workId), "已选入，设置封面和介绍后发布"),
  );

  r.put(
    `${ADM}/order`,
    {
      schema: {
        tags: adminTags,
        summary: "调整顺序：按给出的编号依次排列",
        body: BestWorkOrder,
        response: { 200: Envelope(Type.Array(BestWorkAdmin)) },
      },
      config: write,
    },
    async (req) => ok(await orderBest(db, req.user!.id, req.body.ids), "顺序已保存"),
  );

  r.put(
    `${ADM}/:id`,
    {
      schema: {
        tags: adminTags,
        summary: "修改简介、视频地址、顺序，发布或取消发布",
        params: IdParam,
        body: BestWorkUpdate,
        response: { 200: Envelope(BestWorkAdmin) },
      },
      config: write,
    },
    async (req) => {
      const out = await updateBest(db, req.user!.id, req.params.id, req.body);
      return ok(out, req.body.published === undefined ? "已保存" : out.published ? "已发布到优秀作品" : "已取消发布");
    },
  );

  r.delete(
    `${ADM}/:id`,
    {
      schema: { tags: adminTags, summary: "移出优秀作品", params: IdParam, response: { 200: EmptyEnvelope } },
      config: write,
    },
    async (req) => {
      await removeBest(db, req.user!.id, req.params.id);
      return { error: 0, info: "已移出" };
    },
  );

  r.post(
    `${ADM}/:id/cover`,
    {
      schema: {
        tags: adminTags,
        summary: "上传封面图片（multipart/form-data：file）；PNG 或 JPEG，不超过 5 MB",
        params: IdParam,
        consumes: ["multipart/form-data"],
        response: { 200: Envelope(BestWorkAdmin) },
      },
      config: write,
    },
    async (req, reply) => {
      try {
        return ok(
          await setCover(
            db,
            store,
            req.user!.id,
            req.params.id,
            await receiveImage(req, { what: "封面图片", maxBytes: COVER_MAX_BYTES }),
          ),
          "封面已上传",
        );
      } catch (e) {
        closeIfUnread(req, reply);
        throw e;
      }
    },
  );

  r.get(
    `${ADM}/:id/cover`,
    {
      schema: {
        tags: adminTags,
        summary: "封面图片（含未发布的）",
        params: IdParam,
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
      config: read,
    },
    async (req, reply) => {
      const c = await adminCover(db, req.params.id);
      return reply
        .header("content-type", c.mime)
        .header("cache-control", "private, max-age=86400")
        .header("x-content-type-options", "nosniff")
        .send(await store.get(c.sha256));
    },
  );
}
