/**
 * How the works screens present a reply: success → the server's message; a stale version
 * (409) → a dialog asking to reload the work (the change was not saved); a 422 naming a
 * field → the message under that form field; anything else → an error notification with
 * the server's text.
 */
import { App, type FormInstance } from "antd";
import type { ClientReply } from "../request";
import { fieldOf } from "../request";

export interface ActionOptions {
  /** reload the work after a stale-version refusal */
  reload?: () => void;
  form?: FormInstance;
  /** no success message */
  quiet?: boolean;
}

export function useWorkAction() {
  const { message, modal, notification } = App.useApp();
  return async function run<T>(pending: Promise<ClientReply<T>>, opts: ActionOptions = {}): Promise<ClientReply<T>> {
    const reply = await pending;
    if (reply.error === 0) {
      if (!opts.quiet && reply.info) void message.success(reply.info);
      return reply;
    }
    if (reply.status === 409 && /版本/.test(reply.info)) {
      modal.warning({
        title: "作品已被他人修改",
        content: `${reply.info}。请重新加载作品，确认最新内容后再修改。`,
        okText: "重新加载",
        onOk: () => opts.reload?.(),
      });
      return reply;
    }
    const field = fieldOf(reply);
    if (field && opts.form) {
      opts.form.setFields([{ name: field, errors: [reply.info] }]);
      void message.error(reply.info);
      return reply;
    }
    notification.error({ message: "操作未完成", description: reply.info || "请稍后重试" });
    return reply;
  };
}
