/** The browser tests' time limits, in one place: vitest.e2e.config.ts and the harness read them. */

/** A whole browser test. */
export const TEST_TIMEOUT_MS = 60_000;

/**
 * One Playwright step (a click, a wait for a locator): a step that waits in vain fails naming its
 * locator, well inside the test's own limit rather than as a bare timeout of the whole test.
 */
export const STEP_TIMEOUT_MS = TEST_TIMEOUT_MS / 3;
