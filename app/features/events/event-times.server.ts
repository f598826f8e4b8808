import { TZDate } from "@date-fns/tz";
import { EVENT_WEEKEND, type ClockTime } from "~/game/setting";
import { addDays, formatClubClockWithZone } from "~/lib/dates";

/** The moments of one event's weekend, each an instant that reads as the club's clocks do. */
export type EventTimes = { venueOpens: TZDate; arriveBy: TZDate; gameStarts: TZDate; ends: TZDate };

/** `time` on the club's clocks on `isoDate` ("2027-03-19"), in `timeZone`. */
function clubMoment(isoDate: string, time: ClockTime, timeZone: string): TZDate {
  const [year, month, day] = isoDate.split("-").map(Number);
  return new TZDate(year!, month! - 1, day!, time.hour, time.minute, 0, 0, timeZone);
}

/**
 * When an event's weekend happens (app/game/setting.ts): the venue opens and the game starts on
 * its date, members arrive an hour before the game, and it is over when its last day (Sunday)
 * ends, at the midnight after it. Daylight saving time is the time zone's: 2:00 PM is 2:00 PM
 * on the club's clocks whatever the offset that day.
 */
export function eventTimes(isoDate: string, timeZone: string): EventTimes {
  const { venueOpens, gameStarts, arriveEarlyHours, lastDayOffset } = EVENT_WEEKEND;
  return {
    venueOpens: clubMoment(isoDate, venueOpens, timeZone),
    arriveBy: clubMoment(isoDate, { hour: gameStarts.hour - arriveEarlyHours, minute: gameStarts.minute }, timeZone),
    gameStarts: clubMoment(isoDate, gameStarts, timeZone),
    ends: clubMoment(addDays(isoDate, lastDayOffset + 1), { hour: 0, minute: 0 }, timeZone),
  };
}

/** The day after an event's weekend, when it is over and its post-event letter becomes due. */
export function dayAfterEvent(isoDate: string): string {
  return addDays(isoDate, EVENT_WEEKEND.lastDayOffset + 1);
}

/** "2027-03-19T14:00:00-04:00": the instant with the club's offset, for a <time> element. */
export function isoWithOffset(at: TZDate): string {
  return at.toISOString().replace(/\.000(?=[+-]|Z)/, "");
}

/** An event's times as the events page shows them: each instant (for <time>) and the club's clock. */
export type EventTimeLabels = Record<"venueOpens" | "gameStarts" | "arriveBy", { iso: string; text: string }>;

const LABELS = new Map<string, EventTimeLabels>();
/** The events page's times for an event on `isoDate`; made once per date and zone (a date's times never change). */
export function eventTimeLabels(isoDate: string, timeZone: string): EventTimeLabels {
  const key = `${timeZone} ${isoDate}`;
  let labels = LABELS.get(key);
  if (!labels) {
    const times = eventTimes(isoDate, timeZone);
    const shown = (at: TZDate) => ({ iso: isoWithOffset(at), text: formatClubClockWithZone(at, timeZone) });
    labels = {
      venueOpens: shown(times.venueOpens),
      gameStarts: shown(times.gameStarts),
      arriveBy: shown(times.arriveBy),
    };
    // Dates are few (the upcoming events'); a bound keeps a long-running server's map small regardless.
    if (LABELS.size >= 1_000) LABELS.clear();
    LABELS.set(key, labels);
  }
  return labels;
}
