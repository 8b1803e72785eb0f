/**
 * The current user, always from the server (GET /Backend/Common/user/get-current),
 * held in the one react-query client that refine also uses. Never in localStorage.
 */
import { QueryClient } from "@tanstack/react-query";
import type { CurrentUser } from "../../shared/account/schema";
import { clearRequestCache, get } from "../request";
import { noteSessionUser, SESSION_URL } from "../early-requests";

export const ANONYMOUS: CurrentUser = {
  needToLogin: true,
  userType: null,
  hasComplaintRight: false,
  isSchoolContestJudge: false,
};

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } },
});

export const CURRENT_USER_KEY = ["current-user"] as const;

async function fetchCurrentUser(): Promise<CurrentUser> {
  const reply = await get<CurrentUser>(SESSION_URL, undefined, { silent: true });
  if (reply.error !== 0 || !reply.data) {
    // Without the server we cannot know who this is: treat the visitor as anonymous,
    // the request client has already shown why.
    return ANONYMOUS;
  }
  // Whose early requests the next page load starts (early-requests.ts).
  noteSessionUser(isLoggedIn(reply.data) ? reply.data.id : undefined);
  return reply.data;
}

export const currentUserQuery = {
  queryKey: CURRENT_USER_KEY,
  queryFn: fetchCurrentUser,
  staleTime: 30_000,
};

/** The current user: from the cache when fresh, otherwise asked of the server. */
export function getCurrentUser(): Promise<CurrentUser> {
  return queryClient.fetchQuery(currentUserQuery);
}

/** After logging in or out: store who we are now and drop what the previous user saw. */
export async function setCurrentUser(user: CurrentUser): Promise<void> {
  clearRequestCache();
  queryClient.setQueryData(CURRENT_USER_KEY, user);
  const mine = (key: readonly unknown[]) => key[0] === CURRENT_USER_KEY[0] || key[0] === "permissions";
  // Unused answers for the previous user go; those on screen are fetched again.
  queryClient.removeQueries({ predicate: (q) => !mine(q.queryKey) && q.getObserversCount() === 0 });
  await queryClient.invalidateQueries({ predicate: (q) => !mine(q.queryKey) });
}

export const isLoggedIn = (u: CurrentUser | undefined | null): u is CurrentUser & { userType: number } =>
  !!u && !u.needToLogin && u.userType !== null && u.userType !== undefined;
