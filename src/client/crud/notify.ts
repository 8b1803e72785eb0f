/**
 * Notifications of master-data writes in Chinese with the record's label (refine would name
 * the resource by its key), and a delete that the server turned into archiving
 * ({ result: "archived" }) said as such.
 */
import type { OpenNotificationParams } from "@refinedev/core";

export const savedNotice = (label: string) => (): OpenNotificationParams => ({ type: "success", message: `${label}已保存` });

const messageOf = (error: unknown) => (error as { message?: string } | undefined)?.message;

export const failedNotice =
  (label: string) =>
  (error?: unknown): OpenNotificationParams => ({ type: "error", message: `${label}保存失败`, description: messageOf(error) });

export const deleteNotice =
  (label: string) =>
  (data?: unknown): OpenNotificationParams => ({
    type: "success",
    message:
      (data as { data?: { result?: unknown } } | undefined)?.data?.result === "archived"
        ? `${label}已被引用，已改为归档`
        : `${label}已删除`,
  });

export const deleteFailedNotice =
  (label: string) =>
  (error?: unknown): OpenNotificationParams => ({ type: "error", message: `${label}删除失败`, description: messageOf(error) });

/** The notification props of a form hook for one record label. */
export const formNotices = (label: string) => ({
  successNotification: savedNotice(label),
  errorNotification: failedNotice(label),
});

/** The notification props of a DeleteButton for one record label. */
export const deleteNotices = (label: string) => ({
  successNotification: deleteNotice(label),
  errorNotification: deleteFailedNotice(label),
});
