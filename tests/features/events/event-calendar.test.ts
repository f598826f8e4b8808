import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import { VENUE } from "~/game/setting";
import { deleteAccount } from "~/features/accounts/account-deletion.server";
import crypto from "node:crypto";
import { authSecret } from "~/identity/auth.server";
import { calendarFeedPath } from "~/features/events/calendar-feed.server";
import { config, overrideConfig } from "~/platform/config.server";
import { createEvent } from "~/platform/db/factories";
import { auditLog, profiles } from "~/platform/db/schema";
import { withAppServer } from "../../helpers/app-server";
import { withTestDatabase } from "../../helpers/db";
import { postForm } from "../../helpers/forms";
import { captureLogs } from "../../helpers/logs";
import { signedInMember } from "../../helpers/members";

const db = withTestDatabase();

type Component = InstanceType<typeof ICAL.Component>;
type Entry = {
  uid: string;
  summary: string;
  location: string;
  description: string;
  start: string;
  end: string;
  startZone: string;
  status: string;
};

/**
 * Reads a calendar file with a real calendar library (ical.js). The time zones it knows are
 * only the file's own VTIMEZONE components, so the UTC times below come from what the file says.
 */
function parseCalendar(text: string): { calendar: Component; entries: Entry[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const entries = calendar.getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      location: event.location,
      description: event.description,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      startZone: event.startDate.zone?.tzid ?? "",
      status: String(component.getFirstPropertyValue("status")),
    };
  });
  return { calendar, entries };
}

/** Everything the server logs while this file runs (the access log included): no feed key may be in it. */
const captured = captureLogs();

describe("calendar files", () => {
  const app = withAppServer();
  /** Without cookies, as a calendar app (or a signed-out visitor) asks. */
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${app().url}${path}`, { headers, redirect: "manual" });
  let player: Awaited<ReturnType<typeof signedInMember>> | undefined;
  /** As the events page's "Add to Calendar" asks: with a signed-in member's session. */
  const file = async (path: string) => {
    player ??= await signedInMember("player");
    return get(path, { Cookie: player.cookie });
  };
  /** A (new) member's own feed address, and the key in it. */
  const feedOf = async (role: "applicant" | "player" | "cast" | "manager" = "player") => {
    const member = await signedInMember(role);
    const path = await calendarFeedPath(member.id);
    return { member, path, key: /\/([\w-]{43})\.ics$/.exec(path)![1]! };
  };

  afterEach(() => overrideConfig({ clubTimeZone: "America/New_York" }));

  it("gives one event's file to a signed-in member: the weekend from the venue's opening, in the club's time zone", async () => {
    const event = await createEvent(db(), {
      title: "Blood Moon",
      date: "2027-03-19",
      status: "future",
      ticketUrl: "https://buy.stripe.com/test_blood",
    });
    const response = await file(`/events/${event.id}/calendar.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toContain('filename="Blood Moon 2027-03-19.ics"');
    const text = await response.text();
    expect(text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(text).toContain("DTSTART;TZID=America/New_York:20270319T140000\r\n");
    const { calendar, entries } = parseCalendar(text);
    expect(calendar.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe("America/New_York");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      uid: `event-${event.id}@hopewell`,
      summary: "Blood Moon",
      startZone: "America/New_York",
      // 2:00 PM on Friday, Eastern Daylight Time (UTC-4), to the end of Sunday.
      start: "2027-03-19T18:00:00.000Z",
      end: "2027-03-22T04:00:00.000Z",
      status: "CONFIRMED",
    });
    expect(entries[0]!.location).toContain(VENUE.name);
    expect(entries[0]!.location).toContain("42 Cat Hollow Road, Union, CT 06076");
    expect(entries[0]!.description).toContain("the venue opens at 2:00 PM and the game starts at 10:00 PM");
    expect(entries[0]!.description).toContain("Tickets: https://buy.stripe.com/test_blood");
  });

  it("keeps the club's clock time across a daylight saving change, in the feed of every upcoming event", async () => {
    const winter = await createEvent(db(), { title: "Frost Night", date: "2027-01-15", status: "future" });
    // Clocks go forward on Sunday March 14, 2027, in the middle of this weekend.
    const springForward = await createEvent(db(), { title: "Thaw Weekend", date: "2027-03-12", status: "future" });
    // Clocks go back on Sunday November 7, 2027.
    const fallBack = await createEvent(db(), { title: "Harvest Dark", date: "2027-11-05", status: "future" });
    const past = await createEvent(db(), { title: "Old Bones", date: "2026-01-09", status: "past" });
    const cancelled = await createEvent(db(), { title: "Called Off", date: "2027-04-16", status: "cancelled" });

    const { path: feed } = await feedOf();
    const response = await get(feed);
    expect(response.status).toBe(200);
    const text = await response.text();
    const { calendar, entries } = parseCalendar(text);
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Hopewell events");
    expect(text).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT6H\r\n");
    const byUid = new Map(entries.map((entry) => [entry.uid, entry]));
    expect(byUid.get(`event-${winter.id}@hopewell`)).toMatchObject({
      start: "2027-01-15T19:00:00.000Z",
      end: "2027-01-18T05:00:00.000Z",
    });
    expect(byUid.get(`event-${springForward.id}@hopewell`)).toMatchObject({
      start: "2027-03-12T19:00:00.000Z",
      end: "2027-03-15T04:00:00.000Z",
    });
    expect(byUid.get(`event-${fallBack.id}@hopewell`)).toMatchObject({
      start: "2027-11-05T18:00:00.000Z",
      end: "2027-11-08T05:00:00.000Z",
    });
    expect(byUid.has(`event-${past.id}@hopewell`)).toBe(false);
    expect(byUid.has(`event-${cancelled.id}@hopewell`)).toBe(false);
    // Each upcoming event once, soonest first.
    const starts = entries.map((entry) => entry.start);
    expect(starts).toEqual([...starts].sort());
    expect(new Set(entries.map((entry) => entry.uid)).size).toBe(entries.length);

    // The same UIDs every time and in each event's own file, so apps update rather than duplicate.
    const again = parseCalendar(await (await get(feed)).text()).entries.map((entry) => entry.uid);
    expect(again).toEqual(entries.map((entry) => entry.uid));
    const own = parseCalendar(await (await file(`/events/${fallBack.id}/calendar.ics`)).text()).entries;
    expect(own.map((entry) => entry.uid)).toEqual([`event-${fallBack.id}@hopewell`]);
  });

  it("escapes text and folds long lines as RFC 5545 says", async () => {
    const title = `Blood Moon, Part 2; "The Return" \\ of the Ünquiet ${"Dead ".repeat(30).trim()}`;
    const event = await createEvent(db(), { title, date: "2027-06-18", status: "future" });
    const text = await (await file(`/events/${event.id}/calendar.ics`)).text();
    expect(text).toContain('SUMMARY:Blood Moon\\, Part 2\\; "The Return" \\\\ of the Ünquiet Dead');
    const lines = text.split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of lines) expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(" "))).toBe(true);
    expect(parseCalendar(text).entries[0]!.summary).toBe(title);
  });

  it("is private to the member (no shared cache keeps it), answers a client's current copy with 304, and is never stored for a signed-in browser", async () => {
    await createEvent(db(), { title: "Cache Night", date: "2027-08-13", status: "future" });
    const { path: feed } = await feedOf();
    const first = await get(feed);
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("private, no-cache");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("Set-Cookie")).toBeNull();
    const body = await first.text();
    expect(await (await get(feed)).text()).toBe(body);
    const revalidated = await get(feed, { "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    // A change to the events is a new file.
    await createEvent(db(), { title: "Later Night", date: "2027-09-17", status: "future" });
    const changed = await get(feed, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("SUMMARY:Later Night");

    const event = await createEvent(db(), { title: "Session Night", date: "2027-09-24", status: "future" });
    const signedIn = await file(`/events/${event.id}/calendar.ics`);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("refuses both files to a signed-out visitor: the old public feed is gone, an event's file asks to sign in", async () => {
    const event = await createEvent(db(), { title: "Members Night", date: "2027-10-08", status: "future" });
    const oldFeed = await get("/events/calendar.ics");
    expect(oldFeed.status).toBe(404);
    expect(await oldFeed.text()).not.toContain("BEGIN:VCALENDAR");
    const own = await get(`/events/${event.id}/calendar.ics`);
    expect(own.status).toBe(302);
    expect(own.headers.get("Location")).toBe(
      `/auth?redirectTo=${encodeURIComponent(`/events/${event.id}/calendar.ics`)}`,
    );
  });

  it("serves the feed only at a member's own address, while the member may still see /events; every other address is the same 404", async () => {
    await createEvent(db(), { title: "Feed Night", date: "2027-11-12", status: "future" });
    const mine = await feedOf("player");
    const theirs = await feedOf("applicant");
    const notFound = async (path: string) => {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      const text = await response.text();
      expect(text, path).not.toContain("BEGIN:VCALENDAR");
      return { text, cacheControl: response.headers.get("Cache-Control") };
    };

    // Without any cookie, as a calendar app reads it.
    for (const { path } of [mine, theirs]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
      expect(await response.text()).toContain("SUMMARY:Feed Night");
    }

    const flipped = mine.key.slice(0, -1) + (mine.key.endsWith("A") ? "B" : "A");
    const refusals = [
      // A wrong key, one too short or too long, no key, no ".ics".
      `/events/calendar/${mine.member.id}/${flipped}.ics`,
      `/events/calendar/${mine.member.id}/${mine.key.slice(1)}.ics`,
      `/events/calendar/${mine.member.id}/${mine.key}A.ics`,
      `/events/calendar/${mine.member.id}/.ics`,
      `/events/calendar/${mine.member.id}/${mine.key}`,
      // Another member's id with my key, and my id with theirs.
      `/events/calendar/${theirs.member.id}/${mine.key}.ics`,
      `/events/calendar/${mine.member.id}/${theirs.key}.ics`,
      // A member who does not exist, with a key that would be right for that id.
      await calendarFeedPath("no-such-member"),
    ];
    const answers = [];
    for (const path of refusals) answers.push(await notFound(path));
    // Nothing tells one refusal from another.
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]!.cacheControl).toBe("private, no-store");

    // Suspended: refused at once, and served again once restored.
    await db().update(profiles).set({ banned: true }).where(eq(profiles.id, mine.member.id));
    expect(await notFound(mine.path)).toEqual(answers[0]);
    await db().update(profiles).set({ banned: false }).where(eq(profiles.id, mine.member.id));
    expect((await get(mine.path)).status).toBe(200);

    // Deleted (by a manager): the address is dead for good.
    const manager = await signedInMember("manager");
    expect((await deleteAccount(theirs.member.id, { actorId: manager.id })).ok).toBe(true);
    expect(await notFound(theirs.path)).toEqual(answers[0]);
  });

  it("gives a member a new feed address on request: the old one stops working at once, and no one else's changes", async () => {
    await createEvent(db(), { title: "Renewal Night", date: "2027-10-08", status: "future" });
    const mine = await feedOf("player");
    const theirs = await feedOf("player");
    // Addresses given before new ones could be asked for sign the member's id alone: they keep working.
    const firstKey = crypto
      .createHmac("sha256", await authSecret())
      .update(`hopewell calendar feed v1\u0000${mine.member.id}`, "utf8")
      .digest("base64url");
    expect(mine.key).toBe(firstKey);
    expect((await get(mine.path)).status).toBe(200);

    const events = await fetch(`${app().url}/events`, { headers: { Cookie: mine.member.cookie } });
    expect(await events.text()).toContain(mine.path);
    const renewed = await postForm(app().url, "/events", { intent: "renew_feed" }, mine.member.cookie);
    expect(renewed.status).toBe(200);
    const page = await renewed.text();
    expect(page).toContain(
      "Your calendar feed has a new address. The old one no longer works: subscribe to this one in your calendar app.",
    );
    const [row] = await db()
      .select({ generation: profiles.calendarFeedGeneration })
      .from(profiles)
      .where(eq(profiles.id, mine.member.id));
    expect(row?.generation).toBe(1);

    const newPath = await calendarFeedPath(mine.member.id);
    expect(newPath).not.toBe(mine.path);
    expect(page).toContain(newPath);
    expect(page).not.toContain(mine.path);
    expect((await get(mine.path)).status).toBe(404);
    const feed = await get(newPath);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain("SUMMARY:Renewal Night");
    // Another member's address is untouched.
    expect(await calendarFeedPath(theirs.member.id)).toBe(theirs.path);
    expect((await get(theirs.path)).status).toBe(200);

    // Again: the second address ends too.
    await postForm(app().url, "/events", { intent: "renew_feed" }, mine.member.cookie);
    expect((await get(newPath)).status).toBe(404);
    expect((await get(await calendarFeedPath(mine.member.id))).status).toBe(200);

    // Only a signed-in member asks, and only for themselves; an unknown intent is refused.
    expect((await postForm(app().url, "/events", { intent: "renew_feed" })).status).not.toBe(200);
    expect((await postForm(app().url, "/events", { intent: "delete_feed" }, mine.member.cookie)).status).toBe(400);
  });

  it("never writes a feed's key to the log, whatever the request", async () => {
    const { path, key, member } = await feedOf();
    await createEvent(db(), { title: "Quiet Night", date: "2027-12-10", status: "future" });
    captured.length = 0;
    expect((await get(path)).status).toBe(200);
    expect((await get(path.replace(key, key.split("").reverse().join("")))).status).toBe(404);
    // A form post (no action here), one from another site, and a body over the limit, refused before the app.
    await fetch(`${app().url}${path}`, {
      method: "POST",
      body: "a=1",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app().url },
    });
    await fetch(`${app().url}${path}`, {
      method: "POST",
      body: "a=1",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://elsewhere.example" },
    });
    await fetch(`${app().url}${path}`, {
      method: "POST",
      body: "x".repeat(2_000_000),
      headers: { "Content-Type": "application/octet-stream" },
    }).catch(() => undefined);
    // A spelling the router also matches.
    await get(path.replace("/events/calendar/", "/EVENTS/Calendar/"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = captured.join("\n");
    const requests = captured
      .map((line) => JSON.parse(line) as { msg: string; route?: string })
      .filter((line) => line.msg === "request");
    expect(requests.length).toBeGreaterThanOrEqual(6);
    for (const line of requests) expect(line.route).toBe("/events/calendar/:memberId/:key");
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.split("").reverse().join(""));
    expect(log).toContain("/events/calendar/:memberId/:key");
    expect(log).not.toContain(member.id);
  });

  it("answers 404 for an event that is not upcoming, and for an address that names no event", async () => {
    const cancelled = await createEvent(db(), { title: "Washed Out", date: "2027-10-15", status: "cancelled" });
    const past = await createEvent(db(), { title: "Long Gone", date: "2025-10-17", status: "past" });
    for (const id of [cancelled.id, past.id, "00000000-0000-0000-0000-000000000000", "not-an-id"]) {
      expect((await file(`/events/${id}/calendar.ics`)).status, id).toBe(404);
    }
  });

  it("uses the configured time zone (CLUB_TIME_ZONE) for the times and their VTIMEZONE", async () => {
    const event = await createEvent(db(), { title: "Prairie Night", date: "2027-02-12", status: "future" });
    overrideConfig({ clubTimeZone: "America/Chicago" });
    expect(config().clubTimeZone).toBe("America/Chicago");
    const text = await (await file(`/events/${event.id}/calendar.ics`)).text();
    expect(text).toContain("DTSTART;TZID=America/Chicago:20270212T140000\r\n");
    const { calendar, entries } = parseCalendar(text);
    expect(calendar.getAllSubcomponents("vtimezone").map((zone) => zone.getFirstPropertyValue("tzid"))).toEqual([
      "America/Chicago",
    ]);
    // 2:00 PM Central Standard Time is 20:00 UTC.
    expect(entries[0]).toMatchObject({
      start: "2027-02-12T20:00:00.000Z",
      end: "2027-02-15T06:00:00.000Z",
      startZone: "America/Chicago",
    });

    overrideConfig({ clubTimeZone: "UTC" });
    const utc = await (await file(`/events/${event.id}/calendar.ics`)).text();
    expect(utc).toContain("DTSTART:20270212T140000Z\r\n");
    expect(parseCalendar(utc).entries[0]!.start).toBe("2027-02-12T14:00:00.000Z");
  });

  it("shows the times on staff pages on the same clocks, and hands the zone to the browser", async () => {
    const manager = await signedInMember("manager");
    await db()
      .insert(auditLog)
      .values({
        actorId: manager.id,
        action: "role.change",
        subjectId: manager.id,
        details: {},
        createdAt: new Date("2026-07-04T16:30:00Z"),
      });
    const auditPage = async () => (await get("/tools?tab=audit", { Cookie: manager.cookie })).text();
    // 16:30 UTC is 12:30 PM in New York (daylight time), 9:30 AM in Los Angeles.
    expect(await auditPage()).toContain("Jul 4, 2026, 12:30 PM");
    overrideConfig({ clubTimeZone: "America/Los_Angeles" });
    const html = await auditPage();
    expect(html).toContain("Jul 4, 2026, 9:30 AM");
    expect(html).not.toContain("12:30 PM");
    // The page's data names the zone, so the browser renders the same time as the server.
    expect(html).toContain(String.raw`\"clubTimeZone\",\"America/Los_Angeles\"`);
  });
});
