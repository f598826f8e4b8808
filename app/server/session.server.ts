import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { isRole } from "~/game/roles";
import type { SessionUser } from "~/lib/navigation";
import { authSecret, getAuth, SESSION_COOKIE, SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from "./auth.server";
import { ChangeAwareCache } from "./db/changes.server";
import { database } from "./db/client.server";
import { profiles, sessions } from "./db/schema";

type Lookup = { user: SessionUser | null; setCookies: string[] };

/** True when the request carries a session cookie at all; without one there is nothing to look up. */
export function hasSessionCookie(request: Request): boolean {
  const cookie = request.headers.get("Cookie");
  return cookie !== null && cookie.includes(SESSION_COOKIE);
}

/** The session token from the signed cookie (`token.signature`), or null when absent or not signed by us. */
async function signedToken(request: Request): Promise<string | null> {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== SESSION_COOKIE && name !== `__Secure-${SESSION_COOKIE}`) continue;
    let value: string;
    try {
      value = decodeURIComponent(rest.join("="));
    } catch {
      return null;
    }
    const dot = value.lastIndexOf(".");
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(crypto.createHmac("sha256", await authSecret()).update(token).digest("base64"));
    return signature.length === expected.length && crypto.timingSafeEqual(signature, expected) ? token : null;
  }
  return null;
}

/** A session as read by the quick lookup, usable until it is due to be extended. */
type QuickSession = { user: SessionUser; extendAt: number } | undefined;

/** A session and its member in one indexed query; undefined when there is none. */
async function readSession(token: string): Promise<QuickSession> {
  const db = await database();
  const [row] = await db
    .select({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName, email: profiles.email, role: profiles.role, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(profiles, eq(profiles.id, sessions.userId))
    .where(eq(sessions.token, token));
  if (!row || !isRole(row.role)) return undefined;
  // The auth library extends a session once it is this old (and the extension always comes before expiry).
  const extendAt = row.expiresAt.getTime() - SESSION_EXPIRES_IN_S * 1000 + SESSION_UPDATE_AGE_S * 1000;
  return { user: { id: row.id, firstName: row.firstName, lastName: row.lastName, email: row.email, role: row.role }, extendAt };
}

/**
 * Sessions read recently, by token. Any write to sessions or members drops them all
 * (announced by the database), so a sign-out, a role change or a new name applies to
 * the very next request, as when every request read the database.
 */
const recentSessions = new ChangeAwareCache<QuickSession>(["sessions", "profiles"]);

/**
 * The common case: a signed cookie whose session exists and is not yet due to be
 * extended. Anything else returns undefined and is left to the auth library, which
 * also refreshes or clears the cookie.
 */
async function quickLookup(request: Request): Promise<Lookup | undefined> {
  const token = await signedToken(request);
  if (!token) return undefined;
  const session = await recentSessions.get(token, () => readSession(token), (found) => found !== undefined && Date.now() < found.extendAt);
  if (!session || Date.now() >= session.extendAt) return undefined;
  return { user: session.user, setCookies: [] };
}

/**
 * The member signed in on this request, read fresh from the database (so a role
 * change applies to the next request), and any cookie the session refresh sets.
 */
export async function getSessionUser(request: Request): Promise<Lookup> {
  if (!hasSessionCookie(request)) return { user: null, setCookies: [] };
  const quick = await quickLookup(request);
  if (quick) return quick;
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
