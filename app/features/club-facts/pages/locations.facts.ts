import { z } from "zod";
import { FORMATTED_TEXT_MAX } from "~/lib/formatted-text.limits";
import { ARRIVAL, VENUE } from "~/game/setting";

/** The game location page's own words (kind "locations"): formatted text, one for each section. */

export const LOCATIONS_MESSAGES = {
  text: `Write this section, up to ${FORMATTED_TEXT_MAX.toLocaleString("en-US")} characters.`,
} as const;

const Section = z.string().trim().min(1, LOCATIONS_MESSAGES.text).max(FORMATTED_TEXT_MAX, LOCATIONS_MESSAGES.text);

export const LocationsSchema = z.object({ directions: Section, arrival: Section, venue: Section, notes: Section });
export type ClubLocations = z.infer<typeof LocationsSchema>;

/** The page's text as it was written before the club could change it. */
export function startingLocations(): ClubLocations {
  return {
    directions: `Take I-84 to Exit 73 and follow ${VENUE.highway} east toward ${VENUE.town}. Stay on ${VENUE.highway} for about three miles, then turn onto Cat Hollow Road and follow the lantern signs to the ${VENUE.name} gate. Phone signal fades near the site, so load your map before you leave.`,
    arrival: `Please arrive at least ${ARRIVAL.arriveEarlyHours} hour early to check in, unpack, settle into your cabin and get into costume before the game begins.`,
    venue: [
      "- **On-site parking** in the field by the gate; follow the staff's directions on arrival.",
      "- **Camping areas** for players who prefer a tent to a cabin bunk.",
      "- **Basic amenities**: cabins with bunks, restrooms and drinking water. Bring your own bedding.",
      "- **Emergency services nearby**: the nearest hospital is a short drive away, and staff on site know the route.",
    ].join("\n"),
    notes: [
      "- **Weather**: New England weather changes fast. Pack rain gear, warm layers for the night and sturdy boots for wet trails.",
      "- **Updates**: registered players receive news and any changes by email before each event.",
    ].join("\n"),
  };
}
