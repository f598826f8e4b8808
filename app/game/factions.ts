/**
 * The four factions and the jobs a site starts with (docs/product.md#factions-and-jobs): the
 * club's list begins as this one (features/club-facts/factions) and managers change it at
 * /tools/club/factions. Read only by that starting list, the old site's import and the demo data.
 */
export const STARTING_FACTIONS = [
  "US Survey Corp",
  "Northwest Mineral Corporation",
  "Union Research Initiative",
  "Homesteader",
] as const;

/** Jobs open to every faction. */
export const STARTING_COMMON_JOBS = [
  "Agrarian",
  "Apothecary",
  "Barkeep",
  "Blacksmith",
  "Carpenter",
  "Gunsmith",
  "Hunter / Trapper",
  "Merchant",
  "Miner",
  "Performer",
] as const;

/** Jobs that only one faction may take. */
export const STARTING_FACTION_ONLY_JOBS = {
  Soldier: "US Survey Corp",
  "Natural Scientist": "Union Research Initiative",
} as const satisfies Record<string, (typeof STARTING_FACTIONS)[number]>;
