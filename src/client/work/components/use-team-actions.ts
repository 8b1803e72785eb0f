/**
 * The team editor's data and changes (TeamEditor.tsx): pending email invitations, inviting
 * and withdrawing, and applying a change that returns the work's new view (add, remove,
 * reorder, leave).
 */
import { useQueryClient } from "@tanstack/react-query";
import type { PeopleRole } from "../../../shared/work/people";
import type { TeamInviteView } from "../../../shared/work/invite";
import type { WorkAuthorView, WorkView } from "../../../shared/work/schema";
import type { ClientReply } from "../../request";
import { useTeamInvitations, workApi, workKeys } from "../api";
import { useWorkAction } from "../use-work-action";

export function useTeamActions(
  work: WorkView,
  editable: boolean,
  onChanged: (view: WorkView | null) => void,
  reload: () => void,
) {
  const run = useWorkAction();
  const qc = useQueryClient();
  const invites = useTeamInvitations(work.id, editable).data ?? [];
  const invitedAuthors = invites.filter((i) => i.role === "author");
  const invitedTeachers = invites.filter((i) => i.role === "teacher");
  const invite = async (role: PeopleRole, email: string, name: string) => {
    const r = await run(workApi.invite(work.id, { role, email, name, version: work.version }), { reload });
    if (r.error === 0) reload();
    void qc.invalidateQueries({ queryKey: workKeys.invitations(work.id) });
    return r.error === 0;
  };
  const withdraw = async (i: TeamInviteView) => {
    await run(workApi.withdrawInvite(work.id, i.id));
    void qc.invalidateQueries({ queryKey: workKeys.invitations(work.id) });
    reload();
  };

  const apply = async (p: Promise<ClientReply<WorkView | null>>) => {
    const r = await run(p, { reload });
    if (r.error === 0) onChanged(r.data ?? null);
    return r.error === 0;
  };
  const move = (a: WorkAuthorView, by: -1 | 1) => {
    const ids = work.authors.map((x) => x.userId);
    const i = ids.indexOf(a.userId);
    [ids[i], ids[i + by]] = [ids[i + by], ids[i]];
    return apply(workApi.reorder(work.id, ids, work.version));
  };
  return { invitedAuthors, invitedTeachers, invite, withdraw, apply, move };
}
