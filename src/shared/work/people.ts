/**
 * Finding people for a work's team: students (co-authors) or teachers of the work's school
 * by name, 学号/工号 or username. The reply names a person and nothing to contact them by.
 */
import { Type, type Static } from "typebox";
import { MAX_ID } from "../bounds";

export const PEOPLE_ROLES = ["author", "teacher"] as const;
export type PeopleRole = (typeof PEOPLE_ROLES)[number];
/** the most people one search returns */
export const PEOPLE_LIMIT = 20;

export const PeopleQuery = Type.Object({
  role: Type.Unsafe<PeopleRole>({ type: "string", enum: [...PEOPLE_ROLES], title: "身份" }),
  q: Type.String({ minLength: 1, maxLength: 64, title: "姓名、学号/工号或用户名" }),
  /** the work whose team is edited; without it, the caller's own school (a new work) */
  workId: Type.Optional(Type.Integer({ minimum: 2000000001, maximum: 9999999999, title: "作品编号" })),
});
export type PeopleQuery = Static<typeof PeopleQuery>;

export const PersonHit = Type.Object({
  userId: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  username: Type.String(),
  name: Type.String(),
  /** 学号 or 工号 */
  memberNo: Type.Union([Type.String(), Type.Null()]),
  majorName: Type.Union([Type.String(), Type.Null()]),
  /** already on this work's team */
  onTeam: Type.Boolean(),
});
export type PersonHit = Static<typeof PersonHit>;

export const PeopleReply = Type.Object({
  items: Type.Array(PersonHit),
  /** more people match than were returned: type more to narrow */
  more: Type.Boolean(),
  schoolName: Type.String(),
});
export type PeopleReply = Static<typeof PeopleReply>;
