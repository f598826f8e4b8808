/**
 * The location page's sections, in its order, with their titles: each field of the managers' form
 * is one. Apart from their schema (locations.facts.ts), so the page's script does not carry the
 * validation library.
 */
export const LOCATION_SECTIONS = {
  directions: "Directions",
  arrival: "Arrival Times",
  venue: "Venue Information",
  notes: "Important Notes",
} as const;
export type LocationSection = keyof typeof LOCATION_SECTIONS;
