/**
 * 用户名 + 密码 + 确认密码: the fields every form that creates an account shows (registration,
 * a judge account created from an invitation link), with the shared schema's rules.
 */
import { Form, Input } from "antd";
import { confirmRules, PASSWORD_HINT, passwordRules, usernameRules } from "./rules";

export function CredentialFields() {
  return (
    <>
      <Form.Item name="username" label="用户名" rules={usernameRules} extra="3–32 个字符：字母、数字和 _ . @ -">
        <Input autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={passwordRules} extra={PASSWORD_HINT} hasFeedback>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirm" label="确认密码" dependencies={["password"]} rules={confirmRules("password")} hasFeedback>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
