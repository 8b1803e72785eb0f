/**
 * Announces antd's feedback to screen readers (issue 31, WCAG 4.1.3 status messages): antd's
 * message toasts and a form field's error text appear without any live region, so a blind user
 * hears nothing when a save fails or a field is refused. Two visually hidden live regions are in
 * the page from the start; an observer copies into them the text of each new toast (errors and
 * warnings assertively, others politely) and of each new field error. The field errors stay tied
 * to their fields by antd (aria-describedby, aria-invalid).
 */
import { useEffect, useRef } from "react";

const TOAST = ".ant-message-notice, .ant-notification-notice";
const FIELD_ERROR = ".ant-form-item-explain-error";
const WATCHED = `${TOAST}, ${FIELD_ERROR}`;

function isUrgent(el: Element) {
  return (
    el.matches(FIELD_ERROR) ||
    !!el.querySelector(
      ".ant-message-error, .ant-message-warning, .ant-notification-notice-error, .ant-notification-notice-warning",
    )
  );
}

export function LiveAnnouncer() {
  const polite = useRef<HTMLDivElement>(null);
  const urgent = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const queued = { polite: [] as string[], urgent: [] as string[] };
    // Emptied, then filled a moment later: the same text twice in a row is read twice.
    const flush = () => {
      for (const [key, ref] of [
        ["polite", polite],
        ["urgent", urgent],
      ] as const) {
        const region = ref.current;
        if (!region || !queued[key].length) continue;
        region.textContent = queued[key].join("。");
        queued[key] = [];
      }
    };
    const observer = new MutationObserver((records) => {
      for (const r of records)
        for (const node of r.addedNodes) {
          if (!(node instanceof Element)) continue;
          const found = node.matches(WATCHED) ? [node] : node.querySelector(WATCHED) ? [...node.querySelectorAll(WATCHED)] : [];
          for (const el of found) {
            const text = (el.textContent ?? "").trim();
            if (!text) continue;
            queued[isUrgent(el) ? "urgent" : "polite"].push(text);
          }
        }
      if (!queued.polite.length && !queued.urgent.length) return;
      if (polite.current && queued.polite.length) polite.current.textContent = "";
      if (urgent.current && queued.urgent.length) urgent.current.textContent = "";
      clearTimeout(timer);
      timer = setTimeout(flush, 100);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, []);
  return (
    <>
      <div ref={polite} className="sr-only" aria-live="polite" aria-atomic="true" data-testid="live-polite" />
      <div ref={urgent} className="sr-only" role="alert" aria-atomic="true" data-testid="live-urgent" />
    </>
  );
}
