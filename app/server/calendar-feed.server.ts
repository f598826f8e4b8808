import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { isRole } from "~/game/roles";
import { isMemberId } from "~/lib/ids";
import { isDeletedAccount } from "./account-deletion.server";
import { decideAccess } from "./access.server";
import { authSecret } from "./auth.server";
import { database } from "./db/client.server";
import { profiles } from "./db/schema";

/**
 * The calendar feed is read by calendar apps, which send no cookie: each member gets an address
 * of their own, `/events/calendar/<member id>/<key>.ics`, whose key is an HMAC (SHA-256) of their
 * id made with the site's server secret (AUTH_SECRET, or the one kept in the database). Only the
 * server can make a key, and one member's key opens no other member's address. The address is
 * shown on /events to its member only and never logged (logger.server.ts, loggablePath).
 */
export const CALENDAR_FEED_PATTERN = "/events/calendar/:memberId/:key";

/** What the key signs: the member's id under a label of its own, so it is no other use's signature. */
const KEY_LABEL = "hopewell calendar feed v1";

async function feedKey(memberId: string): Promise<Buffer> {
  return crypto.createHmac("sha256", await authSecret()).update(`${KEY_LABEL}\u0000${memberId}`, "utf8").digest();
}

/** The member's own feed address (a path: the page puts the site's address in front). */
export async function calendarFeedPath(memberId: string): Promise<string> {
  return `/events/calendar/${encodeURIComponent(memberId)}/${(await feedKey(memberId)).toString("base64url")}.ics`;
}

/** Whether `given` ("<key>.ics" from the address) is the member's key, compared in constant time. */
async function isMembersKey(memberId: string, given: string): Promise<boolean> {
  const match = /^([A-Za-z0-9_-]{43})\.ics$/.exec(given);
  if (!match) return false;
  const expected = Buffer.from((await feedKey(memberId)).toString("base64url"), "utf8");
  const offered = Buffer.from(match[1]!, "utf8");
  return offered.length === expected.length && crypto.timingSafeEqual(offered, expected);
}

/**
 * True when the address is a member's own feed address and that member may read it now: the
 * account still exists (not deleted), is not suspended, and its role may see /events (the
 * route table's rule for /events). Every other case is the same false, so a caller answers
 * them all alike and the address tells nobody which it was.
 */
export async function feedReaderAllowed(memberId: string | undefined, key: string | undefined): Promise<boolean> {
  if (!isMemberId(memberId) || typeof key !== "string") return false;
  if (!(await isMembersKey(memberId, key))) return false;
  const db = await database();
  const [member] = await db.select({ role: profiles.role, banned: profiles.banned, email: profiles.email }).from(profiles).where(eq(profiles.id, memberId));
  if (!member || member.banned === true || isDeletedAccount(member)) return false;
  return isRole(member.role) && decideAccess("/events", member.role) === "allow";
}
