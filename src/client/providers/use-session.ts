/** The current user and their permissions, for rendering: menus, guards, pages. */
import { useCallback } from "react";
import { useQuery } from "@tanstack/react-query";
import type { AccessRule } from "../../shared/access";
import { permissionsQuery, ruleKey } from "./access-control";
import { ANONYMOUS, currentUserQuery, isLoggedIn } from "./session";

export function useSession() {
  const userQuery = useQuery(currentUserQuery);
  const user = userQuery.data ?? ANONYMOUS;
  const permsQuery = useQuery({ ...permissionsQuery(user), enabled: !!userQuery.data });
  const perms = permsQuery.data;
  const allows = useCallback((rule: AccessRule) => !!perms?.has(ruleKey(rule)), [perms]);
  return { user, loggedIn: isLoggedIn(user), allows, ready: !!userQuery.data && !!perms };
}
