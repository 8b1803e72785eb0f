/**
 * The work form's 专业组 check (GET /Backend/Work/work/:id/group-check): the shared rule
 * (./group-rule.ts) applied to the work's team for the 大类 and group chosen in the form,
 * before anything is saved or uploaded.
 */
import { Type, type Static } from "typebox";
import { Id } from "../bounds";
import { GroupSchema } from "./schema";

export const GroupCheckQuery = Type.Object({
  categoryId: Type.Optional(Id("作品大类")),
  group: Type.Optional(GroupSchema),
});
export type GroupCheckQuery = Static<typeof GroupCheckQuery>;

export const GroupCheckReply = Type.Object({
  categoryName: Type.String(),
  hasProfessionalGroup: Type.Boolean(),
  /** the majors that make an author 专业组 in this 大类 */
  majors: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  /** the team's authors, each with whether the major counts */
  authors: Type.Array(
    Type.Object({ name: Type.String(), majorName: Type.Union([Type.String(), Type.Null()]), professional: Type.Boolean() }),
  ),
  /** the group the rule asks for */
  required: GroupSchema,
  /** why the chosen group does not fit (the message submit would refuse with), or null */
  problem: Type.Union([Type.String(), Type.Null()]),
});
export type GroupCheckReply = Static<typeof GroupCheckReply>;
