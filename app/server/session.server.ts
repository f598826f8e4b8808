import { isRole } from "~/game/roles";
import type { SessionUser } from "~/lib/navigation";
import { getAuth, SESSION_COOKIE } from "./auth.server";

/** True when the request carries a session cookie at all; without one there is nothing to look up. */
function hasSessionCookie(request: Request): boolean {
  const cookie = request.headers.get("Cookie");
  return cookie !== null && cookie.includes(SESSION_COOKIE);
}

/**
 * The member signed in on this request, read fresh from the database (so a role
 * change applies to the next request), and any cookie the session refresh sets.
 */
export async function getSessionUser(request: Request): Promise<{ user: SessionUser | null; setCookies: string[] }> {
  if (!hasSessionCookie(request)) return { user: null, setCookies: [] };
  const auth = await getAuth();
  const { headers, response } = await auth.api.getSession({ headers: request.headers, returnHeaders: true });
  const setCookies = headers.getSetCookie();
  const user = response?.user as (typeof response extends null ? never : Record<string, unknown>) | undefined;
  if (!user || typeof user.role !== "string" || !isRole(user.role)) return { user: null, setCookies };
  return {
    user: {
      id: String(user.id),
      firstName: String(user.firstName),
      lastName: String(user.lastName),
      email: String(user.email),
      role: user.role,
    },
    setCookies,
  };
}
