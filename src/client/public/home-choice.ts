/**
 * "/" is the public main page for a visitor and the platform for a logged-in user: asked of the
 * server before either app loads (one small request, no antd). A failed request counts as a
 * visitor: the public page shows its own errors, and the admin app would only send the
 * visitor back here.
 */
export const LOGIN_CHOICE = "/account/choose";

export async function visitorAtHome(): Promise<boolean> {
  try {
    const r = await fetch("/Backend/Common/user/get-current", {
      credentials: "same-origin",
      headers: { accept: "application/json" },
    });
    const body = (await r.json()) as { error?: number; data?: { needToLogin?: boolean; userType?: number | null } };
    const u = body.error === 0 ? body.data : undefined;
    return !u || !!u.needToLogin || u.userType === null || u.userType === undefined;
  } catch {
    return true;
  }
}
