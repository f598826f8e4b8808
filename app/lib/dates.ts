import { DEFAULT_CLUB_TIME_ZONE } from "~/game/setting";

// Formatters are built once: constructing an Intl.DateTimeFormat costs far more than using one.
const EVENT_DATE = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/**
 * Times of day are shown on the club's clocks (CLUB_TIME_ZONE, New York unless configured). The
 * zone is one fact for the whole site: the server takes it from its configuration and the root
 * route hands it to the browser, so a page renders the same time on both sides.
 */
function clubFormatters(timeZone: string) {
  return {
    timeZone,
    time: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }),
    day: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone }),
    clock: new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone }),
    weekday: new Intl.DateTimeFormat("en-US", { weekday: "long", month: "short", day: "numeric", timeZone }),
    timeWithZone: new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone,
      timeZoneName: "short",
    }),
    /** `time`'s answers by the minute they show: a list of letters formats the same moments on every visit, at about 3 us each. */
    timesByMinute: new Map<number, string>(),
  };
}
let club = clubFormatters(DEFAULT_CLUB_TIME_ZONE);

/** Sets the zone the club's times are shown in (the configuration's CLUB_TIME_ZONE); a no-op when unchanged. */
export function setClubTimeZone(timeZone: string): void {
  if (timeZone !== club.timeZone) club = clubFormatters(timeZone);
}
/** `make`'s formatter for each time zone asked for, made once. */
function perTimeZone(make: (timeZone: string) => Intl.DateTimeFormat): (timeZone: string) => Intl.DateTimeFormat {
  const made = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let format = made.get(timeZone);
    if (!format) made.set(timeZone, (format = make(timeZone)));
    return format;
  };
}
/** The en-CA locale writes a day as YYYY-MM-DD, the form event dates are stored in. */
const isoDayIn = perTimeZone(
  (timeZone) => new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }),
);
/** "8:15 PM EST". */
const clockWithZoneIn = perTimeZone(
  (timeZone) =>
    new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZone, timeZoneName: "short" }),
);

/** "2026-05-15" -> "Friday, May 15, 2026". Event dates are calendar days, so no time zone shifts them. */
export function formatEventDate(isoDate: string): string {
  let formatted = EVENT_DATES.get(isoDate);
  if (formatted === undefined) {
    const [year, month, day] = isoDate.split("-").map(Number);
    formatted = EVENT_DATE.format(new Date(Date.UTC(year!, month! - 1, day!)));
    // A club has a few hundred event days; the bound only guards against a flood of odd input.
    if (EVENT_DATES.size >= 2_000) EVENT_DATES.clear();
    EVENT_DATES.set(isoDate, formatted);
  }
  return formatted;
}
/** Formatting a date is the dearest part of a page listing events (measured: a quarter millisecond per /events), and each day always reads the same. */
const EVENT_DATES = new Map<string, string>();

/** A moment as the club reads it: "Nov 22, 2026, 8:15 AM". */
export function formatClubTime(at: string | Date): string {
  const moment = new Date(at);
  const minute = Math.floor(moment.getTime() / 60_000);
  let text = club.timesByMinute.get(minute);
  if (text === undefined) {
    text = club.time.format(moment);
    // The bound only keeps memory flat; a page's moments are found again on its next visit.
    if (club.timesByMinute.size >= 10_000) club.timesByMinute.clear();
    club.timesByMinute.set(minute, text);
  }
  return text;
}

/** A moment with the zone's name, where money or a deadline hangs on it: "Nov 22, 2026, 8:15 AM EST". */
export function formatClubTimeWithZone(at: string | Date): string {
  return club.timeWithZone.format(new Date(at));
}

/**
 * A time of day with the zone's name, which says whether it is summer time: "8:15 PM EST". On the
 * club's clocks, or on `timeZone`'s where a caller keeps its answers by zone (the events page's times).
 */
export function formatClubClockWithZone(at: string | Date, timeZone?: string): string {
  return clockWithZoneIn(timeZone ?? club.timeZone).format(new Date(at));
}

/** A day as the club reads it: "Nov 22, 2026". */
export function formatClubDay(at: string | Date): string {
  return club.day.format(new Date(at));
}

/** "7:42 PM on Friday, Nov 27": a recent moment, read off the club's clock, with its day. */
export function formatClubClockAndDay(at: string | Date): string {
  const moment = new Date(at);
  return `${club.clock.format(moment)} on ${club.weekday.format(moment)}`;
}

/** Today's calendar day where the club plays, as "2026-11-22": compared with event dates. */
export function clubToday(now: Date = new Date(), timeZone: string = DEFAULT_CLUB_TIME_ZONE): string {
  // Every time zone's days begin on a whole minute, so the day read for a minute holds for all of it.
  const minute = Math.floor(now.getTime() / 60_000);
  const kept = TODAY_BY_ZONE.get(timeZone);
  if (kept?.minute === minute) return kept.day;
  const day = isoDayIn(timeZone).format(now);
  TODAY_BY_ZONE.set(timeZone, { minute, day });
  return day;
}
const TODAY_BY_ZONE = new Map<string, { minute: number; day: string }>();

/**
 * "2027-03-19" plus 2 days -> "2027-03-21" (calendar days; negative goes back). Pages ask it of
 * the same few event dates over and over (each event's deadlines, for each member), so answers
 * are kept: making the date's text took more than a microsecond a call.
 */
export function addDays(isoDate: string, days: number): string {
  const key = `${isoDate}${days}`;
  let later = DAYS_ADDED.get(key);
  if (later === undefined) {
    const [year, month, day] = isoDate.split("-").map(Number);
    later = new Date(Date.UTC(year!, month! - 1, day! + days)).toISOString().slice(0, 10);
    if (DAYS_ADDED.size >= 5_000) DAYS_ADDED.clear();
    DAYS_ADDED.set(key, later);
  }
  return later;
}
const DAYS_ADDED = new Map<string, string>();
