/**
 * The props of a table row's selection checkbox (rowSelection.getCheckboxProps) with its
 * accessible name: antd passes aria-* on to the <input>, but its type lists none, so an object
 * with only aria-label would not type-check (WCAG 4.1.2; issue 31).
 */
import type { CheckboxProps } from "antd";

export const rowCheckbox = (label: string, props: Partial<CheckboxProps> = {}) =>
  ({ ...props, "aria-label": label }) as Partial<CheckboxProps>;
