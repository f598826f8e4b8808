import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import { VENUE } from "~/game/setting";
import { config, overrideConfig } from "~/server/config.server";
import { createEvent } from "~/server/db/factories";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { signedInMember } from "../helpers/members";

const db = withTestDatabase();

type Component = InstanceType<typeof ICAL.Component>;
type Entry = { uid: string; summary: string; location: string; description: string; start: string; end: string; startZone: string; status: string };

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

describe("calendar files", () => {
  const app = withAppServer();
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app().url}${path}`, { headers, redirect: "manual" });

  afterEach(() => overrideConfig({ clubTimeZone: "America/New_York" }));

  it("gives one event's file to anyone: the weekend from the venue's opening, in the club's time zone", async () => {
    const event = await createEvent(db(), { title: "Blood Moon", date: "2027-03-19", status: "future", ticketUrl: "https://buy.stripe.com/test_blood" });
    const response = await get(`/events/${event.id}/calendar.ics`);
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

    const response = await get("/events/calendar.ics");
    expect(response.status).toBe(200);
    const text = await response.text();
    const { calendar, entries } = parseCalendar(text);
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Hopewell events");
    expect(text).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT6H\r\n");
    const byUid = new Map(entries.map((entry) => [entry.uid, entry]));
    expect(byUid.get(`event-${winter.id}@hopewell`)).toMatchObject({ start: "2027-01-15T19:00:00.000Z", end: "2027-01-18T05:00:00.000Z" });
    expect(byUid.get(`event-${springForward.id}@hopewell`)).toMatchObject({ start: "2027-03-12T19:00:00.000Z", end: "2027-03-15T04:00:00.000Z" });
    expect(byUid.get(`event-${fallBack.id}@hopewell`)).toMatchObject({ start: "2027-11-05T18:00:00.000Z", end: "2027-11-08T05:00:00.000Z" });
    expect(byUid.has(`event-${past.id}@hopewell`)).toBe(false);
    expect(byUid.has(`event-${cancelled.id}@hopewell`)).toBe(false);
    // Each upcoming event once, soonest first.
    const starts = entries.map((entry) => entry.start);
    expect(starts).toEqual([...starts].sort());
    expect(new Set(entries.map((entry) => entry.uid)).size).toBe(entries.length);

    // The same UIDs every time and in each event's own file, so apps update rather than duplicate.
    const again = parseCalendar(await (await get("/events/calendar.ics")).text()).entries.map((entry) => entry.uid);
    expect(again).toEqual(entries.map((entry) => entry.uid));
    const own = parseCalendar(await (await get(`/events/${fallBack.id}/calendar.ics`)).text()).entries;
    expect(own.map((entry) => entry.uid)).toEqual([`event-${fallBack.id}@hopewell`]);
  });

  it("escapes text and folds long lines as RFC 5545 says", async () => {
    const title = `Blood Moon, Part 2; "The Return" \\ of the Ünquiet ${"Dead ".repeat(30).trim()}`;
    const event = await createEvent(db(), { title, date: "2027-06-18", status: "future" });
    const text = await (await get(`/events/${event.id}/calendar.ics`)).text();
    expect(text).toContain('SUMMARY:Blood Moon\\, Part 2\\; "The Return" \\\\ of the Ünquiet Dead');
    const lines = text.split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of lines) expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(" "))).toBe(true);
    expect(parseCalendar(text).entries[0]!.summary).toBe(title);
  });

  it("is public and cacheable, answers a client's current copy with 304, and stays private for a signed-in browser", async () => {
    await createEvent(db(), { title: "Cache Night", date: "2027-08-13", status: "future" });
    const first = await get("/events/calendar.ics");
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=900");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("Set-Cookie")).toBeNull();
    const body = await first.text();
    expect((await (await get("/events/calendar.ics")).text())).toBe(body);
    const revalidated = await get("/events/calendar.ics", { "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    // A change to the events is a new file.
    await createEvent(db(), { title: "Later Night", date: "2027-09-17", status: "future" });
    const changed = await get("/events/calendar.ics", { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("SUMMARY:Later Night");

    const member = await signedInMember("player");
    const signedIn = await get("/events/calendar.ics", { Cookie: member.cookie });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("answers 404 for an event that is not upcoming, and for an address that names no event", async () => {
    const cancelled = await createEvent(db(), { title: "Washed Out", date: "2027-10-15", status: "cancelled" });
    const past = await createEvent(db(), { title: "Long Gone", date: "2025-10-17", status: "past" });
    for (const id of [cancelled.id, past.id, "00000000-0000-0000-0000-000000000000", "not-an-id"]) {
      expect((await get(`/events/${id}/calendar.ics`)).status, id).toBe(404);
    }
  });

  it("uses the configured time zone (CLUB_TIME_ZONE) for the times and their VTIMEZONE", async () => {
    const event = await createEvent(db(), { title: "Prairie Night", date: "2027-02-12", status: "future" });
    overrideConfig({ clubTimeZone: "America/Chicago" });
    expect(config().clubTimeZone).toBe("America/Chicago");
    const text = await (await get(`/events/${event.id}/calendar.ics`)).text();
    expect(text).toContain("DTSTART;TZID=America/Chicago:20270212T140000\r\n");
    const { calendar, entries } = parseCalendar(text);
    expect(calendar.getAllSubcomponents("vtimezone").map((zone) => zone.getFirstPropertyValue("tzid"))).toEqual(["America/Chicago"]);
    // 2:00 PM Central Standard Time is 20:00 UTC.
    expect(entries[0]).toMatchObject({ start: "2027-02-12T20:00:00.000Z", end: "2027-02-15T06:00:00.000Z", startZone: "America/Chicago" });

    overrideConfig({ clubTimeZone: "UTC" });
    const utc = await (await get(`/events/${event.id}/calendar.ics`)).text();
    expect(utc).toContain("DTSTART:20270212T140000Z\r\n");
    expect(parseCalendar(utc).entries[0]!.start).toBe("2027-02-12T14:00:00.000Z");
  });
});
