import { defineConfig } from "vitest/config";
import { TEST_TIMEOUT_MS } from "./tests/e2e/limits";

/** Browser tests: playwright-core driving Debian chromium against the real server. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    setupFiles: ["tests/e2e/setup.ts"],
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: 120000,
    pool: "forks",
    fileParallelism: false,
    // Pages fill in as their queries return: assertions on what a page shows poll for it.
    expect: { poll: { timeout: 10000, interval: 100 } },
  },
});
