/**
 * A table row's button with its Tooltip and/or Popconfirm mounted only when the user comes to
 * it (issue 15): antd's Tooltip and Popconfirm each set up a trigger, styles and observers at
 * render, for every row, although a user opens one at most. Until then only the button is
 * rendered; the pointer entering it, focus, or a click mounts the real Tooltip and Popconfirm
 * around it (synchronously, so the click that follows lands on the final button), with the
 * tooltip shown at once when the pointer is on it and the confirmation open when the button
 * was clicked before. The user sees the same tooltip, the same confirmation, the same button.
 */
import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type Ref,
  type SyntheticEvent,
} from "react";
import { flushSync } from "react-dom";
import { Popconfirm, Tooltip, type PopconfirmProps } from "antd";

type How = "hover" | "focus" | "click";
type ChildProps = {
  onPointerEnter?: (e: SyntheticEvent) => void;
  onFocus?: (e: SyntheticEvent) => void;
  onClick?: (e: SyntheticEvent) => void;
  ref?: Ref<HTMLElement>;
};

/**
 * `children`: the button (an element that passes pointer, focus and click handlers and a ref to its
 * DOM node, as antd's Button does). `tip`: the Tooltip's title. `confirm`: the Popconfirm's props.
 * `real`: instead, the element that replaces the button once used (e.g. refine's DeleteButton with
 * its confirmation and mutation; `children` is then its look-alike).
 */
export function OnDemand({
  children,
  tip,
  confirm,
  real,
}: {
  children: ReactElement<ChildProps>;
  tip?: ReactNode;
  confirm?: Omit<PopconfirmProps, "children">;
  real?: ReactElement<ChildProps>;
}) {
  const [armed, setArmed] = useState<How | null>(null);
  const node = useRef<HTMLElement>(null);
  // Armed by keyboard focus: the new button takes the focus the old one had. Armed by a click
  // (no pointer came first): a real button of its own (`real`) gets that click.
  useEffect(() => {
    if (armed === "focus") node.current?.focus();
    if (armed === "click" && real) node.current?.click();
  }, [armed]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!armed) {
    const own = children.props;
    const arm = (how: How, handler?: (e: SyntheticEvent) => void) => (e: SyntheticEvent) => {
      handler?.(e);
      flushSync(() => setArmed(how));
    };
    return cloneElement(children, {
      onPointerEnter: arm("hover", own.onPointerEnter),
      onFocus: arm("focus", own.onFocus),
      // A click without a pointer entering first (touch, a script): the confirmation opens at once.
      onClick: confirm || real ? arm("click", own.onClick) : own.onClick,
    });
  }
  // (keyed: a new node even when `real` is of the look-alike's type, so that the ref is its own)
  if (real) return cloneElement(real, { ref: node, key: "real" });
  let out: ReactElement = cloneElement(children, { ref: node });
  if (tip)
    out = (
      <Tooltip title={tip} defaultOpen={armed === "hover"}>
        {out}
      </Tooltip>
    );
  if (confirm)
    out = (
      <Popconfirm {...confirm} defaultOpen={armed === "click"}>
        {out}
      </Popconfirm>
    );
  return out;
}
