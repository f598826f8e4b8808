/**
 * The cabins (and the camping area) a site starts with, in their order: the club's list begins
 * as this one (features/club-facts/cabins) and managers change it at /tools/club/cabins. Read
 * only by that starting list, the old site's import and the demo data.
 */
export const STARTING_CABINS = [
  "Dragon's Hoard",
  "Arctic Fox",
  "Weasel Haunt",
  "Wisdom Owls",
  "Clash Stags",
  "Watch Nightingales",
  "Watchtower",
  "Camping",
] as const;

/** A cabin's name; the club's list changes, so any name a record holds is one. */
export type Cabin = string;
