/** Facts about the game world and the venue (SPEC sections 1, 2 and 9). */

export const GAME_NAME = "Hopewell";
export const GAME_YEAR = 1877;
export const GAME_TAGLINE = "Survive the frontier. Fear the dark.";
export const GAME_PLACE = "a mining town in Dakota Territory";

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

export const ARRIVAL = {
  venueOpens: "2:00 PM Friday",
  gameStarts: "10:00 PM Friday",
  arriveEarlyHours: 1,
} as const;
