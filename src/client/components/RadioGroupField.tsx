/**
 * antd's Radio.Group as a form field screen readers understand (issue 31): Form.Item gives its
 * child aria-required, aria-invalid and aria-describedby (the error or hint), which antd's group
 * puts on a plain <div> — not allowed there (axe: aria-allowed-attr, critical). Here they go on a
 * wrapper with role="radiogroup", named by `label`, so the choice, its requirement and its error
 * are read together.
 */
import { Radio, type RadioGroupProps } from "antd";

type Props = RadioGroupProps & {
  /** The group's accessible name (the Form.Item label). */
  label: string;
  "aria-required"?: boolean | "true" | "false";
  "aria-invalid"?: boolean | "true" | "false";
  "aria-describedby"?: string;
};

export function RadioGroupField({
  label,
  id,
  "aria-required": required,
  "aria-invalid": invalid,
  "aria-describedby": describedBy,
  ...group
}: Props) {
  return (
    <div
      role="radiogroup"
      id={id}
      aria-label={label}
      aria-required={required}
      aria-invalid={invalid}
      aria-describedby={describedBy}
    >
      <Radio.Group {...group} />
    </div>
  );
}
