/**
 * The 线下答辩 tab of a judge group: the offline defence admin panel
 * (src/client/judging/defence/AdminSessionPanel.tsx), loaded when the tab is first opened.
 */
import { lazy, Suspense } from "react";
import { Skeleton } from "antd";

const AdminSessionPanel = lazy(() => import("../defence/AdminSessionPanel"));

export function DefenceTab({ contestId, groupId }: { contestId: number; groupId: number }) {
  return (
    <Suspense fallback={<Skeleton active />}>
      <AdminSessionPanel contestId={contestId} groupId={groupId} />
    </Suspense>
  );
}
