/**
 * The results of a contest (/ContestAdmin/ContestResult), for its admins and root; any other
 * contest answers 404. The decisions are the pure module ../../results.ts; here they are
 * loaded, checked and stored, each change in one transaction (change.ts), one module per
 * concern:
 *
 * - compute (compute.ts): the pool's works per result group, their submitted online scores
 *   (judge_score "submitted") normalised per group, the defence scores, ranks →
 *   contest_result (one row per work of the pool). Awards set by hand are kept; automatic
 *   awards and promotions are cleared only when the ranking changed. The options and the fit
 *   go to result_setting. What it reads is load.ts; the stored rows are rows.ts.
 * - allocate (awards.ts): the contest level's work awards per group over the ranking.
 * - patch (awards.ts): an award by hand (kept by later allocations) or back to the
 *   allocation; a promotion by hand within the quota.
 * - promote (awards.ts): the best awarded works within the contest's quota to its parent
 *   contest (recommend_quota in all, category_quotas per 大类). There is no flow that moves a
 *   provincial work into the national contest, so promotion marks the works (contest_result
 *   .promoted) and the national contest receives them from that list; for a school-level
 *   contest the school admin then recommends the marked works through the existing
 *   recommend flow, which checks the same quota.
 * - publish (publish.ts): refused while the scores changed since the computation (everything
 *   is recomputed and compared) or, unless confirmed, while works lack scores. Stores the
 *   model, its version, the options, per group the fit, the judges' effects and the scores it
 *   was fitted on (so normaliseScores on them gives the published scores again), and the head
 *   of the score log; the contest's publicity stage starts now (it is created, moved forward
 *   or reopened for 7 days as needed). The public work lookup shows the awards from then on.
 * - unpublish (publish.ts): the admin withdraws the publication with a reason (the row
 *   stays), the publicity stage gets back its earlier times if nobody changed them since; the
 *   results can then be computed and allocated again.
 * - extra judges (extra-judges.ts) for flagged works; the views (overview.ts) and the .xlsx
 *   export (export.ts).
 * While a publication is in force every change of the results is refused.
 */
export { addExtraJudge, extraJudgeProposals } from "./extra-judges";
export { allocateResults, patchResult, promoteResults } from "./awards";
export { PUBLISHED_REFUSAL } from "./change";
export { computeResults } from "./compute";
export { exportResults } from "./export";
export { groupRanking, resultContests, resultFit, resultsOverview } from "./overview";
export {
  PUBLICITY_DAYS,
  publicationParams,
  publishedAward,
  publishedAwards,
  publishResults,
  unpublishResults,
  type PublishedParams,
} from "./publish";
