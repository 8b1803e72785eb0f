/** Types of scripts/build.mjs for the TypeScript that imports it (tests, benchmarks). */
export const ROOT: string;
export const SERVER_OUT: string;
export const SERVER_ENTRIES: Record<string, string>;
export function clientOut(env?: NodeJS.ProcessEnv): string;
export function serverState(out?: string): "missing" | "stale" | null;
export function clientState(out?: string): "missing" | "stale" | null;
export function buildServer(out?: string): Promise<number>;
export function buildClient(out?: string): void;
export function buildIfNeeded(parts?: { server?: boolean; client?: boolean }): Promise<void>;
