/**
 * Every cross-domain effect in one place: which domain follows which domain event
 * (src/server/events/). The emitting domain never imports its followers, so the domains stay
 * layered (certificate and national build on judging, judging on work; dupcheck on work).
 * Loaded by app.ts, so every entry point that builds the app has them; a bus without them
 * refuses to emit.
 *
 * - results.changed (judging: publish, withdraw, any change of a published result), in the
 *   transaction: the certificates are re-synced (syncCertificates), then the national entries
 *   (syncNationalEntries) — the order they always ran in; works named in the event (a
 *   complaint's change of one work) that now qualify are promoted before (promoteChangedWorks).
 * - work.transitioned (work: applyTransition), in the transaction: a disqualified work's
 *   certificates are revoked.
 * - work.textChanged (work: submit, resubmission, edits, documents), after the commit: the
 *   duplicate check queues the indexing (dupcheck/triggers.ts, registered per database by
 *   dupcheck/indexing.ts).
 */
import { events } from "./events";
import { syncCertificates, syncWorkCertificates } from "./certificate/issue";
import { syncNationalEntries } from "./national/entries";
import { forgetOutdatedDone, promoteChangedWorks } from "./national/promotion";
import { worksChanged } from "./dupcheck/triggers";

events.inTransaction("results.changed", async (trx, { contestId, at }) => {
  await syncCertificates(trx, contestId, at);
});
events.inTransaction("results.changed", async (trx, { contestId, userId, workIds }) => {
  // A changed work that now qualifies is promoted first (within the quota, before the national
  // deadline); otherwise its admins get a to-do item (national/promotion.ts).
  if (workIds?.length) await promoteChangedWorks(trx, contestId, workIds, userId);
  await syncNationalEntries(trx, contestId, userId);
  // A promotion to-do marked 已处理 shows again once the work's promotion state changes again.
  if (workIds?.length) await forgetOutdatedDone(trx, contestId, workIds);
});
events.inTransaction("work.transitioned", async (trx, { workId, to, at }) => {
  // A disqualified work's certificates are revoked in the same transaction.
  if (to === "disqualified") await syncWorkCertificates(trx, workId, at);
});
events.afterCommit("work.textChanged", (db, { workIds }) => worksChanged(db, workIds));
events.wired = true;

export { events };
