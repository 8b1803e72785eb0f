/**
 * antd form rules taken from the shared request schemas (src/shared/account/schema.ts),
 * so the browser checks exactly what the server validates.
 */
import type { FormInstance, FormRule } from "antd";
import { Password, RegisterBody, Username } from "../../shared/account/schema";
import type { ClientReply } from "../request";
import { fieldOf } from "../request";
import { required } from "./required-rule";

/** The string constraints of a TypeBox schema (its static type does not list them). */
interface StringLimits {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}
const limits = (schema: unknown) => schema as StringLimits;

const P = limits(Password);
const U = limits(Username);
const props = {
  name: limits(RegisterBody.properties.name),
  email: limits(RegisterBody.properties.email),
  phone: limits(RegisterBody.properties.phone),
  memberNo: limits(RegisterBody.properties.memberNo),
};

export const PASSWORD_HINT = `至少 ${P.minLength} 位，且同时包含字母和数字`;

export { required };

/** One rule per field beyond "required", so a bad value shows one message, not two. */
const lengthAndPattern = (l: StringLimits, message: string): FormRule => ({
  validator: (_r, value?: string) => {
    if (!value) return Promise.resolve();
    const ok =
      (l.minLength === undefined || value.length >= l.minLength) &&
      (l.maxLength === undefined || value.length <= l.maxLength) &&
      (!l.pattern || new RegExp(l.pattern).test(value));
    return ok ? Promise.resolve() : Promise.reject(new Error(message));
  },
});

export const usernameRules: FormRule[] = [
  required("用户名"),
  lengthAndPattern(U, `用户名为 ${U.minLength}–${U.maxLength} 个字符，只能包含字母、数字和 _ . @ -`),
];

export const passwordRules: FormRule[] = [required("密码"), lengthAndPattern(P, `密码${PASSWORD_HINT}`)];

/** "Confirm password": must equal the field `field`. */
export const confirmRules = (field: string): FormRule[] => [
  { required: true, message: "请再次输入密码" },
  ({ getFieldValue }) => ({
    validator: (_r, value) =>
      !value || getFieldValue(field) === value ? Promise.resolve() : Promise.reject(new Error("两次输入的密码不一致")),
  }),
];

export const nameRules: FormRule[] = [
  required("姓名"),
  {
    min: props.name.minLength,
    max: props.name.maxLength,
    message: `姓名长度为 ${props.name.minLength}–${props.name.maxLength} 个字符`,
  },
];

export const emailRules: FormRule[] = [
  required("邮箱"),
  { type: "email", message: "邮箱格式不正确" },
  { max: props.email.maxLength, message: "邮箱过长" },
];

export const phoneRules: FormRule[] = [{ pattern: new RegExp(props.phone.pattern!), message: "请输入 11 位手机号" }];

export const memberNoRules: FormRule[] = [{ max: props.memberNo.maxLength, message: `最多 ${props.memberNo.maxLength} 个字符` }];

export const codeRules: FormRule[] = [required("验证码"), { pattern: /^\d{6}$/, message: "验证码为 6 位数字" }];

/** Puts a 422 reply's message under the form field it names, if the form has it; true if it did. */
export function applyFieldError(form: FormInstance, reply: ClientReply, fields: readonly string[]): boolean {
  const field = fieldOf(reply)?.split(".").pop();
  if (!field || !fields.includes(field)) return false;
  form.setFields([{ name: field, errors: [reply.info] }]);
  return true;
}
