/** The reply envelope of every /Backend route: { error, info, data? }. */
import { Type, type Static, type TSchema } from "typebox";

export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ error: Type.Integer(), info: Type.String(), data: Type.Optional(data) });

export const EmptyEnvelope = Type.Object({ error: Type.Integer(), info: Type.String(), data: Type.Optional(Type.Any()) });

export interface Reply<T = unknown> {
  error: number;
  info: string;
  data?: T;
}

export type EnvelopeOf<T extends TSchema> = Static<ReturnType<typeof Envelope<T>>>;
