// Formatters are built once: constructing an Intl.DateTimeFormat costs far more than using one.
const EVENT_DATE = new Intl.DateTimeFormat("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
/** The club meets in New England, so times of day are shown in its time zone. */
const CLUB_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" });
const CLUB_DAY = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "America/New_York" });
/** The en-CA locale writes a day as YYYY-MM-DD, the form event dates are stored in. */
const CLUB_ISO_DAY = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "America/New_York" });

/** "2026-05-15" -> "Friday, May 15, 2026". Event dates are calendar days, so no time zone shifts them. */
export function formatEventDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return EVENT_DATE.format(new Date(Date.UTC(year!, month! - 1, day!)));
}

/** A moment as the club reads it: "Nov 22, 2026, 8:15 AM". */
export function formatClubTime(at: string | Date): string {
  return CLUB_TIME.format(new Date(at));
}

/** A day as the club reads it: "Nov 22, 2026". */
export function formatClubDay(at: string | Date): string {
  return CLUB_DAY.format(new Date(at));
}

/** Today's calendar day where the club plays, as "2026-11-22": compared with event dates. */
export function clubToday(now: Date = new Date()): string {
  return CLUB_ISO_DAY.format(now);
}
