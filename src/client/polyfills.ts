/**
 * casbin's model parser (Config.newConfigFromText) calls the Node global Buffer.from,
 * which browsers lack. The `buffer` package is casbin's own dependency (already in
 * the bundle for casbin's IP helpers); expose it as the global before the policy is built.
 * Imported first in main.tsx.
 */
import { Buffer } from "buffer";

const g = globalThis as { Buffer?: unknown };
if (typeof g.Buffer === "undefined") g.Buffer = Buffer;
