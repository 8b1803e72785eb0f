/**
 * The figures of the last duplicate-check benchmark (npm run bench:dupcheck -- --record
 * rewrites this file), shown on /admin/ElasticSearch. null until a run was recorded.
 */
import type { DupBenchmarkFigures } from "./schema";

export const LAST_BENCHMARK: DupBenchmarkFigures | null = null;
