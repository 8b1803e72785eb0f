/** The pulsing logo's phase: advance by the step, restart at 0 once past π. Opacity is sin(phase). */
import { LOADING_PHASE_STEP } from "../../shared/constants";

export function nextLoadingPhase(phase: number): number {
  const next = phase + LOADING_PHASE_STEP;
  return next > Math.PI ? 0 : next;
}

export const loadingOpacity = (phase: number) => Math.sin(phase);
