/** Hands antd's context-aware message and notification to the request client. */
import { useEffect } from "react";
import { App } from "antd";
import { setFeedbackSink } from "../request";
import { takeQueuedNotices } from "./pending-notice";

export function FeedbackBridge() {
  const { message, notification } = App.useApp();
  useEffect(() => {
    setFeedbackSink({
      notifyError: (n) => notification.error({ message: n.message, description: n.description }),
      messageError: (text) => void message.error(text),
      messageSuccess: (text) => void message.success(text),
    });
    // Greetings raised by the screen before this one (the light login entry).
    for (const n of takeQueuedNotices()) notification.success(n);
    return () => setFeedbackSink(null);
  }, [message, notification]);
  return null;
}
