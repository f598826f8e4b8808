import { currentFacts } from "../club-facts.server";
import { LocationsSchema, type ClubLocations } from "./locations.facts";
import { LOCATION_SECTIONS, type LocationSection } from "./location-sections";
import { pageTextsEditor } from "./page-texts.server";
import { formattedTextHtml } from "~/lib/formatted-text.server";

/**
 * The game location page's own words (kind "locations"): its four sections as /locations shows
 * them, and the managers' page that changes them (routes/staff/club/locations.tsx).
 */

const SECTIONS = Object.keys(LOCATION_SECTIONS) as LocationSection[];

/** Each section made into HTML (the safe subset). */
export type ShownLocations = Record<LocationSection, string>;

/** Made once for each version read, not on every visit to the page. */
const shownVersions = new WeakMap<ClubLocations, ShownLocations>();

/** The location page's sections as it shows them. */
export async function locationsAsShown(): Promise<ShownLocations> {
  const { content } = await currentFacts("locations");
  let shown = shownVersions.get(content);
  if (!shown) {
    shown = Object.fromEntries(
      SECTIONS.map((section) => [section, formattedTextHtml(content[section])]),
    ) as ShownLocations;
    shownVersions.set(content, shown);
  }
  return shown;
}

export const locationsPage = pageTextsEditor({
  kind: "locations",
  name: "the location page",
  fields: SECTIONS,
  schema: LocationsSchema,
  toFields: (content) => ({ ...content }),
  fromFields: (texts) => texts,
});
