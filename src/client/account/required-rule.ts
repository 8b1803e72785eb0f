/**
 * The "required" form rule of the account forms. A module of its own: the login pages need only
 * this one, and rules.ts brings the shared request schemas (TypeBox) with it, which the light
 * login entry (src/client/login) does not download.
 */
import type { FormRule } from "antd";

export const required = (what: string): FormRule => ({ required: true, whitespace: true, message: `请输入${what}` });
