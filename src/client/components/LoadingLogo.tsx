/** The decorative pulsing logo shown while the first data loads and while pages load. */
import { useEffect, useRef } from "react";
import { LOADING_BOX_HEIGHT_PX, LOADING_BOX_PADDING_PX, LOADING_TICK_MS } from "../../shared/constants";
import { Logo } from "./Logo";
import { loadingOpacity, nextLoadingPhase } from "./loading-phase";

export function LoadingLogo({ fullScreen = false }: { fullScreen?: boolean }) {
  const logo = useRef<SVGSVGElement>(null);
  useEffect(() => {
    // The pulse sets the logo's opacity itself, not through React state: a state update every
    // 50 ms made React commit every 50 ms while a page loaded behind this fallback, each tick
    // ahead of the page's own (interruptible) render (issue 15, heavy pages).
    let phase = 0;
    const timer = setInterval(() => {
      phase = nextLoadingPhase(phase);
      if (logo.current) logo.current.style.opacity = String(loadingOpacity(phase));
    }, LOADING_TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const box = (
    <div
      role="status"
      aria-label="加载中"
      data-testid="loading-logo"
      style={{ height: LOADING_BOX_HEIGHT_PX, padding: LOADING_BOX_PADDING_PX, display: "flex", justifyContent: "center" }}
    >
      <Logo ref={logo} style={{ height: "100%", width: "auto", opacity: loadingOpacity(0) }} title="加载中" />
    </div>
  );
  if (!fullScreen) return box;
  return <div style={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center" }}>{box}</div>;
}

/** For the router's HydrateFallback while the root layout loads the current user. */
export function FullScreenLoading() {
  return <LoadingLogo fullScreen />;
}
