/** Which paths the light login entry serves (main.tsx asks before loading any application; tiny on purpose: the public entry loads it too). */
export const isLoginPath = (pathname: string) => /^\/account\/(StudentLogin|TeacherLogin|Login)\/?$/i.test(pathname);

/**
 * The visitor's account pages of the light login entry: the three login pages, registration, the
 * forgotten password (with ?token=… from the mail: the new password), the mailed address check
 * (/verify-email?token=…), the resent verification mail and the team invitation's registration (/workInvite/:code). Case-insensitive like the router.
 */
export const isLightAccountPath = (pathname: string) =>
  isLoginPath(pathname) ||
  /^\/account\/(Register|claim-account)\/?$/i.test(pathname) ||
  /^\/verify-email(-claim)?\/?$/i.test(pathname) ||
  /^\/workInvite\/[^/]+\/?$/i.test(pathname);
