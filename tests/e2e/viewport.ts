/** What the phone tests ask of a page's layout, measured in the browser. */
import type { Locator } from "playwright-core";

/** The element is on screen: inside the viewport's width and height and not covered by another. */
export const onScreen = (target: Locator) =>
  target.first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return (
      r.width > 0 &&
      r.left >= 0 &&
      r.right <= window.innerWidth &&
      r.top >= 0 &&
      r.bottom <= window.innerHeight &&
      !!hit &&
      (hit === el || el.contains(hit))
    );
  });
