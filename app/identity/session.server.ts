import { isRole } from "~/game/roles";
import type { SessionUser } from "~/lib/navigation";
import { carriesAuthCookie } from "./auth-cookie.server";
import { getAuth, SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from "./auth.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";

type Lookup = { user: SessionUser | null; setCookies: string[] };

/** True when the request carries a session cookie at all; without one there is nothing to look up. */
export function hasSessionCookie(request: Request): boolean {
  return carriesAuthCookie(request.headers.get("Cookie"));
}

/** The library's answer for one Cookie header, and until when it may be reused. */
type Answer = Lookup & { reusableUntil: number };

/** Asks the auth library who is signed in; it checks the cookie's signature, the session and its expiry. */
async function askAuth(headers: Headers): Promise<Answer> {
  const auth = await getAuth();
  const { headers: answer, response } = await auth.api.getSession({ headers, returnHeaders: true });
  const setCookies = answer.getSetCookie();
  const role = response?.user.role;
  if (!response || typeof role !== "string" || !isRole(role)) return { user: null, setCookies, reusableUntil: 0 };
  const { id, firstName, lastName, email } = response.user;
  // The library extends a session once SESSION_UPDATE_AGE_S has passed since it was last
  // extended (to SESSION_EXPIRES_IN_S from then): until that moment its answer cannot change
  // by itself, only through a write to the session or the member.
  const lastExtended = new Date(response.session.expiresAt).getTime() - SESSION_EXPIRES_IN_S * 1000;
  const assuranceLevel = response.session.assuranceLevel === "aal2" ? "aal2" : "aal1";
  const twoFactorEnabled = (response.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true;
  return {
    user: { id, firstName, lastName, email, role, assuranceLevel, twoFactorEnabled },
    setCookies,
    reusableUntil: lastExtended + SESSION_UPDATE_AGE_S * 1000,
  };
}

/** The longest a kept answer about who is signed in (and their role) is used. */
export const SESSION_ANSWER_MAX_AGE_MS = 5_000;

/**
 * The library's answers, by the request's whole Cookie header (opaque to us: no cookie name
 * or format is read here). Only a signed-in answer that set no cookie is kept, so a forged
 * or expired cookie is asked about every time. Any write to sessions or members drops them
 * all (announced by the database), so a sign-out, a role change or a new name applies to the
 * very next request, as when every request asked the library; and none is used for longer
 * than SESSION_ANSWER_MAX_AGE_MS, whatever the announcements.
 */
const recentAnswers = new ChangeAwareCache<Answer>({
  name: "session answers",
  tables: ["sessions", "profiles"],
  // Who is signed in and their role: should an announcement be lost (a connection that died
  // silently is only noticed at the next heartbeat), a sign-out or demotion still applies within this.
  maxAgeMs: SESSION_ANSWER_MAX_AGE_MS,
});
const reusable = (answer: Answer) =>
  answer.user !== null && answer.setCookies.length === 0 && Date.now() < answer.reusableUntil;

/**
 * The member signed in on this request, as the auth library sees it (so a role change
 * applies to the next request), and any cookie its session refresh sets.
 */
export async function getSessionUser(request: Request): Promise<Lookup> {
  if (!hasSessionCookie(request)) return { user: null, setCookies: [] };
  const cookie = request.headers.get("Cookie")!;
  const { user, setCookies } = await recentAnswers.get(cookie, () => askAuth(request.headers), reusable);
  return { user, setCookies };
}
