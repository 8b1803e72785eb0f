/**
 * Complaint-view mode: the menu shows only the complaint area (/complaint-view/…) while the
 * user is on one of its pages. The mode is the address itself — nothing is stored — so it ends
 * with the area's exit entry, with any route outside the area and never survives a reload
 * elsewhere. (It used to be a sessionStorage flag that stuck after a visit to /complaint.)
 */
import { useLocation } from "react-router";

export const COMPLAINT_AREA = "/complaint-view/";
/** Left behind by the old sticky mode; removed on sight. */
const OLD_KEY = "saiwu.complaint-view";

/** Whether a path is inside the complaint-view area (case-insensitive like the router). */
export const isComplaintArea = (pathname: string) => pathname.toLowerCase().startsWith(COMPLAINT_AREA);

let cleaned = false;
function forgetOldFlag() {
  if (cleaned) return;
  cleaned = true;
  try {
    sessionStorage.removeItem(OLD_KEY);
  } catch {
    // storage unavailable: nothing to clean
  }
}

export function useComplaintView(): boolean {
  const { pathname } = useLocation();
  forgetOldFlag();
  return isComplaintArea(pathname);
}
