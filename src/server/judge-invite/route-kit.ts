/**
 * Shared pieces of the judge-invite route groups (see routes.ts): the dependencies, path
 * prefixes, the reply envelope helper, the access pairs, and the rate-limit rules (per user,
 * and a resend's share of the invited mailbox's "mail" bucket).
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Db } from "../db";
import type { Config } from "../config";
import type { Mailer } from "../mail/mailer";
import { HOUR, type LimitRule, perUser } from "../plugins/limits";

export const tags = ["评委邀请"];
export { ok } from "../common/http";

export interface InviteRouteDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
}

export const JI = "/Backend/JudgeInvite";
export const PUB = "/Backend/Public/judge-invite";

/** The helpers every judge-invite route group uses, built once per plugin registration. */
export function inviteRouteKit(app: FastifyInstance, deps: InviteRouteDeps) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db, mailer, config } = deps;
  // Read at send time: PUBLIC_URL may be settled after the routes are registered (tests listen on port 0).
  const inviteDeps = {
    db,
    mailer,
    get publicUrl() {
      return config.publicUrl;
    },
  };
  const acc = (act: "read" | "create" | "update") => ["api.judgeInvitations", act] as const;
  const mine = (act: "read" | "update") => ["api.myJudgeInvitations", act] as const;
  // A resend mails the invited address: it counts in that mailbox's bucket (MAIL_RATE_MAX an hour).
  const resendMail: LimitRule = {
    name: "mail",
    max: config.mailRateMax,
    windowMs: HOUR,
    key: async (req) => {
      const id = (req.params as { id?: number }).id;
      const row = id
        ? await db.selectFrom("judge_invitation").select("email").where("id", "=", Number(id)).executeTakeFirst()
        : undefined;
      return row?.email ?? null;
    },
  };
  return { r, db, config, inviteDeps, acc, mine, perUser, resendMail };
}

export type InviteRouteKit = ReturnType<typeof inviteRouteKit>;
