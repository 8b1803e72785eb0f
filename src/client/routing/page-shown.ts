/**
 * Whether a routed page has shown its content since the application started: RoutePage marks it
 * once the page's lazily loaded component has mounted (its Suspense resolved). What can wait
 * for the page (the side menu's to-do badges) waits for it (issue 15, heavy pages).
 */
let shown = false;
const waiting = new Set<() => void>();

export function markPageShown(): void {
  if (shown) return;
  shown = true;
  for (const f of [...waiting]) f();
  waiting.clear();
}

/** Calls `f` once a page has shown (at once if one has); returns a function that cancels it. */
export function onPageShown(f: () => void): () => void {
  if (shown) {
    f();
    return () => {};
  }
  waiting.add(f);
  return () => void waiting.delete(f);
}
