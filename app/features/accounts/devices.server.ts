import Bowser from "bowser";
import { authRefusal, getAuth } from "~/identity/auth.server";

/** One signed-in device as the page shows it. Never the session's token: that is the key to the session. */
export type Device = {
  /** The session's id: names the row in forms, opens nothing by itself. */
  id: string;
  browser: string;
  address: string | null;
  lastSeen: string;
  current: boolean;
};

/** "Firefox 133 on Windows 10", from the user agent the session recorded. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown browser";
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(" ");
  if (!browser && !os) return "Unknown browser";
  return [browser || "Unknown browser", os].filter(Boolean).join(" on ");
}

/** What the library lists for the member: each session with its token, which stays on the server. */
type ListedSession = {
  id: string;
  token: string;
  userAgent?: string | null;
  ipAddress?: string | null;
  updatedAt: Date;
  createdAt: Date;
};

export type DeviceList = { ok: true; devices: Device[] } | { ok: false; reason: "stale" };

async function listedSessions(
  headers: Headers,
): Promise<{ sessions: ListedSession[]; currentId: string | undefined } | null> {
  const auth = await getAuth();
  try {
    const [sessions, current] = await Promise.all([
      auth.api.listSessions({ headers }),
      auth.api.getSession({ headers }),
    ]);
    return { sessions: sessions as ListedSession[], currentId: current?.session.id };
  } catch (error) {
    const refusal = await authRefusal(error);
    // The library lists sessions only to a session signed in within its "fresh" age (a day).
    if (refusal?.code === "SESSION_NOT_FRESH") return null;
    throw error;
  }
}

/** The member's signed-in devices, this one first, then the most recently seen. */
export async function listDevices(request: Request): Promise<DeviceList> {
  const listed = await listedSessions(request.headers);
  if (!listed) return { ok: false, reason: "stale" };
  const devices = listed.sessions
    .map((session) => ({
      id: session.id,
      browser: describeUserAgent(session.userAgent),
      address: session.ipAddress || null,
      lastSeen: new Date(session.updatedAt).toISOString(),
      current: session.id === listed.currentId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeen.localeCompare(a.lastSeen));
  return { ok: true, devices };
}

/** Ends this device's session; returns the cookies that clear it in the browser. */
export async function signOutThisDevice(request: Request): Promise<string[]> {
  const auth = await getAuth();
  const result = await auth.api.signOut({ headers: request.headers, returnHeaders: true });
  return result.headers.getSetCookie();
}

/** Ends every session of the member but this one (the old service's scope "others"). */
export async function signOutOtherDevices(request: Request): Promise<void> {
  const auth = await getAuth();
  await auth.api.revokeOtherSessions({ headers: request.headers });
}

/** Ends every session of the member, this one too (scope "global"); returns the cookies that clear this one. */
export async function signOutEverywhere(request: Request): Promise<string[]> {
  const auth = await getAuth();
  const result = await auth.api.revokeSessions({ headers: request.headers, returnHeaders: true });
  return result.headers.getSetCookie();
}

/**
 * Ends one of the member's other sessions, named by its id. The token the library needs is
 * looked up in the member's own list, so an id of anyone else's session finds nothing.
 * False when no such other session of this member is listed (already ended, not theirs, or this one).
 */
export async function signOutDevice(request: Request, sessionId: string): Promise<boolean | "stale"> {
  const listed = await listedSessions(request.headers);
  if (!listed) return "stale";
  // This device is signed out by signOutThisDevice, which also clears its cookie.
  const session = listed.sessions.find((s) => s.id === sessionId && s.id !== listed.currentId);
  if (!session) return false;
  const auth = await getAuth();
  await auth.api.revokeSession({ headers: request.headers, body: { token: session.token } });
  return true;
}
