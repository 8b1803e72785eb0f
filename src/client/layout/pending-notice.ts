/**
 * Success notices raised just before the page changes application (the light login entry hands
 * over to the admin application after logging in): kept here and shown by the admin
 * application's FeedbackBridge when it mounts, so the greeting is not lost with the old screen.
 */
export interface Notice {
  message: string;
  description?: string;
}

const queue: Notice[] = [];

export function queueNotice(n: Notice) {
  queue.push(n);
}

export function takeQueuedNotices(): Notice[] {
  return queue.splice(0, queue.length);
}
