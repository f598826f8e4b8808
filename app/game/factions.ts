/** The four factions of Hopewell and the jobs each may take (docs/product.md#factions-and-jobs). */
export const FACTIONS = [
  "US Survey Corp",
  "Northwest Mineral Corporation",
  "Union Research Initiative",
  "Homesteader",
] as const;
export type Faction = (typeof FACTIONS)[number];

/** Jobs open to every faction. */
export const COMMON_JOBS = [
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
export const FACTION_ONLY_JOBS = {
  Soldier: "US Survey Corp",
  "Natural Scientist": "Union Research Initiative",
} as const satisfies Record<string, Faction>;

export const JOBS = [
  ...COMMON_JOBS,
  ...(Object.keys(FACTION_ONLY_JOBS) as (keyof typeof FACTION_ONLY_JOBS)[]),
] as const;
export type Job = (typeof JOBS)[number];

export function isFaction(value: string): value is Faction {
  return (FACTIONS as readonly string[]).includes(value);
}

/** The jobs a member of `faction` may choose, in display order. */
export function jobsForFaction(faction: string): Job[] {
  const extras = (Object.entries(FACTION_ONLY_JOBS) as [Job, Faction][])
    .filter(([, only]) => only === faction)
    .map(([job]) => job);
  return [...COMMON_JOBS, ...extras];
}

export function isValidFactionJob(faction: string, job: string): boolean {
  return isFaction(faction) && jobsForFaction(faction).includes(job as Job);
}
