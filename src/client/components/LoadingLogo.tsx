/** The decorative pulsing logo shown while the first data loads and while pages load. */
import { useEffect, useState } from "react";
import { LOADING_BOX_HEIGHT_PX, LOADING_BOX_PADDING_PX, LOADING_TICK_MS } from "../../shared/constants";
import { Logo } from "./Logo";
import { loadingOpacity, nextLoadingPhase } from "./loading-phase";

export function LoadingLogo({ fullScreen = false }: { fullScreen?: boolean }) {
  const [phase, setPhase] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setPhase(nextLoadingPhase), LOADING_TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const box = (
    <div
      role="status"
      aria-label="加载中"
      data-testid="loading-logo"
      style={{ height: LOADING_BOX_HEIGHT_PX, padding: LOADING_BOX_PADDING_PX, display: "flex", justifyContent: "center" }}
    >
      <Logo style={{ height: "100%", width: "auto", opacity: loadingOpacity(phase) }} title="加载中" />
    </div>
  );
  if (!fullScreen) return box;
  return <div style={{ minHeight: "100vh", display: "flex", alignItems: "center", justifyContent: "center" }}>{box}</div>;
}

/** For the router's HydrateFallback while the root layout loads the current user. */
export function FullScreenLoading() {
  return <LoadingLogo fullScreen />;
}
