/** The /test health page (root): what this deployment runs, without any secret. */
import { Type, type Static } from "typebox";

export const HealthView = Type.Object({
  version: Type.String(),
  commit: Type.Union([Type.String(), Type.Null()]),
  node: Type.String(),
  startedAt: Type.String(),
  database: Type.Object({
    kind: Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")]),
    /** host:port/db for PostgreSQL, the file name for SQLite: never a user or password */
    location: Type.String(),
    latestMigration: Type.Union([Type.String(), Type.Null()]),
    applied: Type.Integer(),
    known: Type.Integer(),
    pending: Type.Array(Type.String()),
  }),
  mail: Type.Object({
    mode: Type.Union([Type.Literal("smtp"), Type.Literal("outbox")]),
    host: Type.Union([Type.String(), Type.Null()]),
    port: Type.Union([Type.Integer(), Type.Null()]),
    auth: Type.Boolean(),
    from: Type.String(),
  }),
  storage: Type.Object({
    driver: Type.Union([Type.Literal("local"), Type.Literal("s3")]),
    bucket: Type.Union([Type.String(), Type.Null()]),
    endpoint: Type.Union([Type.String(), Type.Null()]),
  }),
  queue: Type.Object({ driver: Type.String() }),
  process: Type.Object({
    pid: Type.Integer(),
    clusterWorker: Type.Boolean(),
    workerId: Type.Union([Type.Integer(), Type.Null()]),
    cpus: Type.Integer(),
    uptimeSeconds: Type.Integer(),
    rssMB: Type.Integer(),
    hint: Type.String(),
  }),
});
export type HealthView = Static<typeof HealthView>;

export const TestMailReply = Type.Object({ to: Type.String() });
export type TestMailReply = Static<typeof TestMailReply>;
