/**
 * The offline defence (现场答辩) of a judge group: one session per group.
 *
 * - The contest admin (own contests and their children; root) arranges it: time, place or
 *   meeting link, what to prepare, minutes per work, and which of the group's works defend
 *   (default all). Each work gets a slot with an unguessable code: the authors' link
 *   /contest/reply/:code.
 * - The order is drawn at random by the admin or the group leader (专家组长): the seed comes
 *   from crypto random and is stored with who and when; the order follows from it by
 *   ../../draw.ts, so anyone can re-check it. Slot times: start + (position − 1) × minutes.
 *   A redraw is refused once scoring has started.
 * - The group's judges (members) score each work they may judge: 0–100, 强烈推荐/推荐/不推荐
 *   and a comment, editable until the leader signs off. A judge never sees a work of the own
 *   school (outside a school-level contest), one the judge advises or authors, or one
 *   declared as a conflict (nor, with the national option, of the own province): 404.
 *   Every change of a score appends to the contest's score log in the same transaction.
 * - The leader sees the consolidated sheet (every member's score, the mean, the counts of
 *   each recommendation) and signs off; missing scores are refused unless the leader
 *   confirms with a note (a member may be absent). After the sign-off everything is
 *   read-only until the contest admin reopens it with a reason.
 *
 * Sessions, works and sheets a user may not see answer 404, whether they exist or not.
 *
 * The code is split by job: rows.ts (loading, access checks, refusal texts), codes.ts
 * (link codes and draw seeds), judgeable.ts (conflicts of interest), views.ts (the session
 * views), sessions.ts (the admin's arrangement), draw.ts (the draw), judge.ts (the judge's
 * view and scores), sheet.ts (the group sheet and the sign-off). This file re-exports the
 * public names.
 */
export { newCode, newSeed } from "./codes";
export { drawSession } from "./draw";
export { judgeDefenceFile, judgeSessionById, mySessions, saveScore } from "./judge";
export { NO_DEFENCE_WORK, NO_SESSION, NO_SHEET, NOT_JUDGED } from "./rows";
export { adminGroupDefence, createSession, reopenSession, updateSession } from "./sessions";
export { groupSheet, recommendationName, signOff } from "./sheet";
export { defenceFiles } from "./views";
