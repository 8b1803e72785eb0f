/**
 * Per-contest complaint settings (/Backend/ComplaintManagement/contests/:contestId, api.complaintSettings):
 * due times and reminder lead time, and the contest's handlers and arbitrators. Registered from routes.ts.
 */
import { Type } from "typebox";
import { Envelope } from "../../shared/envelope";
import { ComplaintContestParam, ComplaintSettings, ContestHandler, HandlersBody } from "../../shared/complaint/schema";
import { contestHandlers, readSettings, setContestHandlers, writeSettings } from "./manage";
import { type ComplaintRouteKit, tags, ok } from "./route-kit";

export function complaintSettingsRoutes(kit: ComplaintRouteKit) {
  const { r, db } = kit;
  const M = "/Backend/ComplaintManagement";
  const settings = (act: "read" | "update") => ["api.complaintSettings", act] as const;
  r.get(
    `${M}/contests/:contestId/settings`,
    {
      schema: {
        tags,
        summary: "赛事的申诉处理期限（天）和提醒提前量（小时）",
        params: ComplaintContestParam,
        response: { 200: Envelope(ComplaintSettings) },
      },
      config: { access: settings("read") },
    },
    async (req) => ok(await readSettings(db, req.user!, req.params.contestId)),
  );
  r.put(
    `${M}/contests/:contestId/settings`,
    {
      schema: {
        tags,
        summary: "设置赛事的申诉处理期限（超级管理员、本赛事的赛事管理员）",
        params: ComplaintContestParam,
        body: ComplaintSettings,
        response: { 200: Envelope(ComplaintSettings) },
      },
      config: { access: settings("update") },
    },
    async (req) => ok(await writeSettings(db, req.user!, req.params.contestId, req.body), "已保存申诉处理期限"),
  );
  r.get(
    `${M}/contests/:contestId/handlers`,
    {
      schema: {
        tags,
        summary: "赛事的申诉处理人员和仲裁员",
        params: ComplaintContestParam,
        response: { 200: Envelope(Type.Array(ContestHandler)) },
      },
      config: { access: settings("read") },
    },
    async (req) => ok(await contestHandlers(db, req.user!, req.params.contestId)),
  );
  r.put(
    `${M}/contests/:contestId/handlers`,
    {
      schema: {
        tags,
        summary: "设置赛事的申诉处理人员（有申诉权限的申诉审核员、申诉管理员）和仲裁员",
        params: ComplaintContestParam,
        body: HandlersBody,
        response: { 200: Envelope(Type.Array(ContestHandler)) },
      },
      config: { access: settings("update") },
    },
    async (req) => ok(await setContestHandlers(db, req.user!, req.params.contestId, req.body.userIds), "已保存处理人员"),
  );
}
