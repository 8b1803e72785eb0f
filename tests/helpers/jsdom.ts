/** jsdom has no matchMedia; antd's breakpoints ask it. `matches` answers every query (true: a wide screen). */
export function stubMatchMedia(matches = false) {
  window.matchMedia ??= ((q: string) => ({
    matches,
    media: q,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}
