/** Facts about the game world and the venue (docs/product.md#the-game). */

export const GAME_YEAR = 1877;
export const GAME_TAGLINE = "Survive the frontier. Fear the dark.";

/** Accepted players send in a costume photo this many weeks before each event. */
export const COSTUME_PHOTO_WEEKS_BEFORE = 2;

export const VENUE = {
  name: "Taber Creek",
  street: "42 Cat Hollow Road",
  town: "Union",
  state: "Connecticut",
  stateCode: "CT",
  postalCode: "06076",
  /** Used for the default map and the directions link. */
  latitude: 41.9907,
  longitude: -72.1573,
  highway: "Route 190",
} as const;

export const VENUE_ADDRESS = `${VENUE.street}, ${VENUE.town}, ${VENUE.stateCode} ${VENUE.postalCode}`;

/** The club plays in New England: event times are its clocks' unless CLUB_TIME_ZONE says otherwise. */
export const DEFAULT_CLUB_TIME_ZONE = "America/New_York";

/** A time of day on the club's clocks, 24-hour. */
export type ClockTime = { readonly hour: number; readonly minute: number };

/**
 * An event's weekend. Its date is the Friday the venue opens; the times are that day's, on
 * the club's clocks. It runs "from Friday night to Sunday", so it is over when Sunday ends.
 */
export const EVENT_WEEKEND = {
  venueOpens: { hour: 14, minute: 0 },
  gameStarts: { hour: 22, minute: 0 },
  /** Arrive at least this many hours before the game starts. */
  arriveEarlyHours: 1,
  /** The last day of play, counted in days from the event's date (Friday + 2 = Sunday). */
  lastDayOffset: 2,
} as const satisfies { venueOpens: ClockTime; gameStarts: ClockTime; arriveEarlyHours: number; lastDayOffset: number };

/** 14:00 -> "2:00 PM". */
export function formatClock({ hour, minute }: ClockTime): string {
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(minute).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"}`;
}

/** The arrival times as the location page states them (docs/product.md#the-venue), made from EVENT_WEEKEND. */
export const ARRIVAL = {
  venueOpens: `${formatClock(EVENT_WEEKEND.venueOpens)} Friday`,
  gameStarts: `${formatClock(EVENT_WEEKEND.gameStarts)} Friday`,
  arriveEarlyHours: EVENT_WEEKEND.arriveEarlyHours,
} as const;
