/**
 * Fast review's keyboard shortcuts and the reviewer's choice of how they work (WCAG 2.1.4,
 * character key shortcuts): single keys (P/Enter 通过, R, X, U, J/→, K/←), the same letters with
 * Alt (Alt+P …, no Enter or arrows), or off. The choice is kept in this browser (localStorage) and
 * shown, with the keys it gives, on the page (FastActionPanel.tsx).
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { FormatOutcome } from "../../../shared/work/states";

export type KeyMode = "single" | "alt" | "off";
export const KEY_MODES: { value: KeyMode; label: string }[] = [
  { value: "single", label: "单键" },
  { value: "alt", label: "Alt+键" },
  { value: "off", label: "关闭" },
];

const STORAGE_KEY = "saiwu.fastReview.keys";
const listeners = new Set<() => void>();

function readMode(): KeyMode {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return v === "alt" || v === "off" ? v : "single";
  } catch {
    return "single";
  }
}

export function setKeyMode(mode: KeyMode) {
  try {
    localStorage.setItem(STORAGE_KEY, mode);
  } catch {
    // Private mode without storage: the choice lasts until the page closes.
  }
  current = mode;
  for (const f of listeners) f();
}

let current: KeyMode | undefined;
const snapshot = () => (current ??= readMode());
const subscribe = (f: () => void) => {
  listeners.add(f);
  return () => void listeners.delete(f);
};

/** The reviewer's key mode, and updates when it changes. */
export const useKeyMode = () => useSyncExternalStore(subscribe, snapshot, (): KeyMode => "single");

export type KeyCommand = FormatOutcome | "next" | "prev";

const LETTERS: Record<string, KeyCommand> = {
  P: "format_pass",
  R: "format_return",
  X: "format_reject",
  U: "format_reopen",
  J: "next",
  K: "prev",
};
const SINGLE_ONLY: Record<string, KeyCommand> = { Enter: "format_pass", ArrowRight: "next", ArrowLeft: "prev" };

/** The keys shown for a command in a mode (none when the shortcuts are off). */
export function keysOf(command: KeyCommand, mode: KeyMode): string[] {
  if (mode === "off") return [];
  const letters = Object.keys(LETTERS).filter((k) => LETTERS[k] === command);
  if (mode === "alt") return letters.map((k) => `Alt+${k}`);
  const arrows: Record<string, string> = { Enter: "Enter", ArrowRight: "→", ArrowLeft: "←" };
  return [
    ...letters,
    ...Object.keys(SINGLE_ONLY)
      .filter((k) => SINGLE_ONLY[k] === command)
      .map((k) => arrows[k]),
  ];
}

/** Where a key press is typing or belongs to a control, it is not a command. */
function isCommandTarget(e: KeyboardEvent) {
  const el = e.target as HTMLElement | null;
  if (!el) return true;
  if (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName)) return false;
  // Enter on a focused button or link keeps its own meaning; so do the arrows in a radio group.
  if (e.key === "Enter" && (el.tagName === "BUTTON" || el.tagName === "A")) return false;
  return !el.closest(".ant-modal, .ant-select-dropdown, .ant-picker-dropdown, .ant-segmented, [role=radiogroup]");
}

/** The command of a key press in a mode, or null. */
export function commandOf(e: KeyboardEvent, mode: KeyMode): KeyCommand | null {
  if (mode === "off" || e.ctrlKey || e.metaKey || e.shiftKey || !isCommandTarget(e)) return null;
  if (mode === "alt") {
    // The physical key: on a Mac, Option+P types "π".
    if (!e.altKey || !/^Key[A-Z]$/.test(e.code)) return null;
    return LETTERS[e.code.slice(3)] ?? null;
  }
  if (e.altKey) return null;
  const k = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  return LETTERS[k] ?? SINGLE_ONLY[k] ?? null;
}

/** Listens on the window for the commands of the reviewer's mode (not while a dialog is open). */
export function useReviewKeys(
  modalOpen: boolean,
  decide: (o: FormatOutcome) => Promise<void>,
  move: (dir: "next" | "prev") => void,
) {
  const mode = useKeyMode();
  const handler = useRef<(e: KeyboardEvent) => void>(() => undefined);
  handler.current = (e: KeyboardEvent) => {
    if (modalOpen) return;
    const command = commandOf(e, mode);
    if (!command) return;
    e.preventDefault();
    if (command === "next" || command === "prev") move(command);
    else void decide(command);
  };
  useEffect(() => {
    const on = (e: KeyboardEvent) => handler.current(e);
    window.addEventListener("keydown", on);
    return () => window.removeEventListener("keydown", on);
  }, []);
}
