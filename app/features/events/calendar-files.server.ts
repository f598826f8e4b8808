import crypto from "node:crypto";
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { EVENT_WEEKEND, VENUE, VENUE_ADDRESS, formatClock } from "~/game/setting";
import { formatEventDate } from "~/lib/dates";
import { config } from "~/platform/config.server";
import { eventTimes } from "./event-times.server";

/** What a calendar entry is made from: an event as the events page lists it. */
export type CalendarEvent = { id: string; title: string; date: string; ticketUrl: string | null; createdAt: Date };

export const CALENDAR_NAME = "Hopewell events";
/** How often a subscribed calendar app is asked to read the feed again. */
const FEED_REFRESH_SECONDS = 6 * 60 * 60;

/**
 * The entry's UID: the event's own id, so every file and every reading of the feed names the
 * same event the same way, and a calendar app updates it rather than adding it twice.
 */
export function eventUid(eventId: string): string {
  return `event-${eventId}@hopewell`;
}

/** The VTIMEZONE of `name` (its offsets and daylight saving rules), for apps that do not know the name. */
function vtimezone(name: string): string | null {
  const block = tzlib_get_ical_block(name, false);
  return Array.isArray(block) && block[0] ? block[0] : null;
}

/** UTC is written as UTC times (ending in Z), with no time zone to describe. */
function isUtc(timeZone: string): boolean {
  return timeZone === "UTC" || timeZone === "Etc/UTC";
}

function description(event: CalendarEvent, siteUrl: string): string {
  const { venueOpens, gameStarts, arriveEarlyHours } = EVENT_WEEKEND;
  return [
    `${formatEventDate(event.date)}: the venue opens at ${formatClock(venueOpens)} and the game starts at ${formatClock(gameStarts)}. Arrive at least ${arriveEarlyHours} hour early.`,
    `${VENUE.name}, ${VENUE_ADDRESS}. Directions: ${siteUrl}/locations#directions`,
    event.ticketUrl ? `Tickets: ${event.ticketUrl}` : null,
    `Your status for this event: ${siteUrl}/events`,
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * An iCalendar file (RFC 5545) of `events`, written by ical-generator: each entry runs from the
 * venue's opening on the event's date to the end of its last day, in the club's time zone (TZID
 * with a VTIMEZONE, so apps that do not know the zone's name still place it right). The library
 * escapes text and folds long lines. DTSTAMP is when the event was added, so the same events
 * always make the same file (and the same ETag).
 */
export function eventsCalendar(
  events: readonly CalendarEvent[],
  options: { timeZone: string; siteUrl: string; feed: boolean },
): string {
  const { timeZone, siteUrl } = options;
  const utc = isUtc(timeZone);
  const calendar = ical({
    name: CALENDAR_NAME,
    prodId: { company: "Hopewell", product: "Members site", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
    // No calendar-wide zone (it would also shift DTSTAMP, which must be UTC): each entry names its own.
    timezone: { name: null, generator: vtimezone },
    ttl: options.feed ? FEED_REFRESH_SECONDS : null,
    url: options.feed ? `${siteUrl}/events` : null,
  });
  for (const event of events) {
    const times = eventTimes(event.date, timeZone);
    calendar.createEvent({
      id: eventUid(event.id),
      stamp: event.createdAt,
      // A plain Date in UTC; in a zone, the zone's own date (ical-generator writes its wall time under TZID).
      start: utc ? new Date(times.venueOpens.getTime()) : times.venueOpens,
      end: utc ? new Date(times.ends.getTime()) : times.ends,
      timezone: utc ? null : timeZone,
      summary: event.title,
      description: description(event, siteUrl),
      location: { title: VENUE.name, address: VENUE_ADDRESS, geo: { lat: VENUE.latitude, lon: VENUE.longitude } },
      url: `${siteUrl}/events`,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  // Every content line ends with CRLF (RFC 5545 section 3.1), the last one too; the library leaves it off.
  return `${calendar.toString()}\r\n`;
}

/** The public address of the site, for links in calendar files and the feed's address: APP_URL, else the one asked. */
export function siteUrl(request: Request): string {
  return config().appUrl?.replace(/\/$/, "") ?? new URL(request.url).origin;
}

/** A strong validator for a calendar file: its content's hash. */
export function calendarEtag(body: string): string {
  return `"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/** Whether the client's copy (If-None-Match) is this one. */
export function clientHasCopy(request: Request, etag: string): boolean {
  const given = request.headers.get("If-None-Match");
  if (!given) return false;
  return given === "*" || given.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * Calendar files are for members only (the feed's address is a member's secret), so no shared
 * cache may keep them; the client may keep its copy but asks again each time (the member is
 * checked on every reading), and a copy still current is a 304 by its ETag.
 */
export const CALENDAR_CACHE_CONTROL = "private, no-cache";

/** The response for a calendar file: private, revalidated by ETag. */
export function calendarResponse(request: Request, body: string, fileName: string): Response {
  const etag = calendarEtag(body);
  const headers = {
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": `inline; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    "Cache-Control": CALENDAR_CACHE_CONTROL,
    ETag: etag,
  };
  if (clientHasCopy(request, etag))
    return new Response(null, { status: 304, headers: { "Cache-Control": headers["Cache-Control"], ETag: etag } });
  return new Response(request.method === "HEAD" ? null : body, { headers });
}
