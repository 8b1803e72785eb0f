/**
 * The judge pool's query keys. Here, below both, because the pool page (judge-pool) shows the
 * invitation screens and an answered invitation (judge-invite) refreshes the pool's queries.
 */
export const poolKeys = {
  all: ["judge-pool"] as const,
  history: (id: number) => ["judge-pool", "history", id] as const,
  tags: ["judge-pool", "tags"] as const,
  self: ["judge-pool", "self"] as const,
};
