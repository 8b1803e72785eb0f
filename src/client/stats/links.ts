/**
 * Where a figure leads: the works list filtered to a state (and a contest). Root and contest
 * admins: /WorkManagement?status=&contestId= (read on its first render); a school admin: the
 * school's works, /school/WorkManagement?status=.
 */
import { ROLE } from "../../shared/roles";

export function worksListPath(role: number, state: string, contestId?: number | null): string {
  const status = `status=${encodeURIComponent(state)}`;
  if (role === ROLE.schoolAdmin) return `/school/WorkManagement?${status}`;
  return `/WorkManagement?${status}${contestId ? `&contestId=${contestId}` : ""}`;
}
