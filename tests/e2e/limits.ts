/** The browser tests' time limits, in one place: vitest.e2e.config.ts and the harness read them. */

/** A whole browser test. */
export const TEST_TIMEOUT_MS = 60_000;

/**
 * One Playwright step (a click, a wait for a locator): a step that waits in vain fails naming its
 * locator, inside the test's own limit rather than as a bare timeout of the whole test. Playwright's
 * own default (30 s): with a third of the test's limit, a page load that stalled ~20 s (seen once in
 * CI, /admin/contest/ProvinceContest: its first GETs came 19.7 s after the shell) failed a test that
 * had passed for many runs.
 */
export const STEP_TIMEOUT_MS = TEST_TIMEOUT_MS / 2;
