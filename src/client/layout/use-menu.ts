/** The current user's menu, built from THE route table and the policy. */
import { useMemo } from "react";
import { ROUTES } from "../routes";
import { buildMenu, resolveRoutes } from "../routing/model";
import { useSession } from "../providers/use-session";
import { useComplaintView } from "./complaint-view";

export function useMenu() {
  const { allows } = useSession();
  const complaintView = useComplaintView();
  const menu = useMemo(() => buildMenu(resolveRoutes(ROUTES, allows), { complaintView }), [allows, complaintView]);
  return { menu, complaintView };
}
