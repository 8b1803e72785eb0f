/**
 * What the page frame tells the side menu and the header: whether the window is narrow (below
 * antd's `md`, 768 px: the menu is a drawer behind the header's menu button, issue 31) and how to
 * open and close that drawer. The media queries are read while rendering (issue 15: no second
 * render of the layout once the width is known).
 */
import { createContext, useContext, useSyncExternalStore } from "react";

export const SM = "(min-width: 576px)";
export const MD = "(min-width: 768px)";

/** Whether the window matches `query` (true when there is no window). */
export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => matchMedia(query).matches,
    () => true,
  );
}

export interface Frame {
  /** The menu is a drawer (a phone), not a side menu. */
  drawer: boolean;
  menuOpen: boolean;
  setMenuOpen(open: boolean): void;
}

/** Outside a PageFrame (a test rendering the menu alone): a side menu. */
export const FrameContext = createContext<Frame>({ drawer: false, menuOpen: false, setMenuOpen: () => {} });

export const useFrame = () => useContext(FrameContext);

/** A phone: the page frame below 768 px (pages show cards for tables there). */
export const usePhone = () => useContext(FrameContext).drawer;
