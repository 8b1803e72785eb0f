/**
 * Complaint-view mode: entering /complaint switches the menu to the complaint area
 * until the user leaves it; remembered for the browser session (sessionStorage).
 */
import { useSyncExternalStore } from "react";

const KEY = "saiwu.complaint-view";
const listeners = new Set<() => void>();

export function isComplaintView(): boolean {
  try {
    return sessionStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

export function setComplaintView(on: boolean) {
  try {
    if (on) sessionStorage.setItem(KEY, "1");
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage unavailable (private mode): the mode lasts only for this page
  }
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useComplaintView(): boolean {
  return useSyncExternalStore(subscribe, isComplaintView, () => false);
}
