import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { isRole } from "~/game/roles";
import { isMemberId } from "~/lib/ids";
import { isDeletedAccount } from "~/features/accounts/account-deletion.server";
import { decideAccess } from "~/web/access.server";
import { authSecret } from "~/identity/auth.server";
import { ChangeAwareCache, wroteTo } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { profiles } from "~/platform/db/schema";

/**
 * The calendar feed is read by calendar apps, which send no cookie: each member gets an address
 * of their own, `/events/calendar/<member id>/<key>.ics`, whose key is an HMAC (SHA-256) of their
 * id made with the site's server secret (AUTH_SECRET, or the one kept in the database). Only the
 * server can make a key, and one member's key opens no other member's address. The address is
 * shown on /events to its member only and never logged (logger.server.ts, loggablePath). A
 * member who fears it leaked asks for a new one: the key also signs how many times they have
 * (profiles.calendar_feed_generation), so the old address stops working at once.
 */

/** What the key signs: the member's id under a label of its own, so it is no other use's signature. */
const KEY_LABEL = "hopewell calendar feed v1";

async function feedKey(memberId: string, generation: number): Promise<Buffer> {
  // The first address of each member signs the id alone, as every address given before new ones could be asked for.
  const signed =
    generation === 0 ? `${KEY_LABEL}\u0000${memberId}` : `${KEY_LABEL}\u0000${memberId}\u0000${generation}`;
  return crypto
    .createHmac("sha256", await authSecret())
    .update(signed, "utf8")
    .digest();
}

/**
 * Members' current feed addresses, kept until a write to profiles: the events page shows the
 * address on every visit, and making it afresh (an HMAC) cost about a twentieth of a millisecond each time.
 */
const keptFeedPaths = new ChangeAwareCache<string>({
  name: "calendar feed addresses",
  tables: ["profiles"],
  maxAgeMs: 60_000,
  maxEntries: 10_000,
});

/** The member's current feed address, as a path. */
export async function calendarFeedPath(memberId: string): Promise<string> {
  return keptFeedPaths.get(memberId, async () => {
    const db = await database();
    const [member] = await db
      .select({ generation: profiles.calendarFeedGeneration })
      .from(profiles)
      .where(eq(profiles.id, memberId));
    return feedPathFor(memberId, member?.generation ?? 0);
  });
}

function feedPathFor(memberId: string, generation: number): Promise<string> {
  return feedKey(memberId, generation).then(
    (key) => `/events/calendar/${encodeURIComponent(memberId)}/${key.toString("base64url")}.ics`,
  );
}

/** Whether `given` ("<key>.ics" from the address) is the member's current key, compared in constant time. */
async function isMembersKey(memberId: string, generation: number, given: string): Promise<boolean> {
  const match = /^([A-Za-z0-9_-]{43})\.ics$/.exec(given);
  if (!match) return false;
  const expected = Buffer.from((await feedKey(memberId, generation)).toString("base64url"), "utf8");
  const offered = Buffer.from(match[1]!, "utf8");
  return offered.length === expected.length && crypto.timingSafeEqual(offered, expected);
}

/**
 * Gives the member a new feed address and ends the one they had: calendar apps subscribed to
 * the old one find nothing there from now on. Returns the new address (a path).
 */
export async function renewCalendarFeed(memberId: string): Promise<string | null> {
  const db = await database();
  const [renewed] = await db
    .update(profiles)
    .set({ calendarFeedGeneration: sql`${profiles.calendarFeedGeneration} + 1` })
    .where(eq(profiles.id, memberId))
    .returning({ generation: profiles.calendarFeedGeneration });
  wroteTo("profiles");
  return renewed ? feedPathFor(memberId, renewed.generation) : null;
}

/**
 * True when the address is a member's own feed address and that member may read it now: the
 * account still exists (not deleted), is not suspended, and its role may see /events (the
 * route table's rule for /events). Every other case is the same false, so a caller answers
 * them all alike and the address tells nobody which it was.
 */
export async function feedReaderAllowed(memberId: string | undefined, key: string | undefined): Promise<boolean> {
  if (!isMemberId(memberId) || typeof key !== "string") return false;
  const db = await database();
  const [member] = await db
    .select({
      role: profiles.role,
      banned: profiles.banned,
      email: profiles.email,
      generation: profiles.calendarFeedGeneration,
    })
    .from(profiles)
    .where(eq(profiles.id, memberId));
  if (!member || !(await isMembersKey(memberId, member.generation, key))) return false;
  if (member.banned === true || isDeletedAccount(member)) return false;
  return isRole(member.role) && decideAccess("/events", member.role) === "allow";
}
