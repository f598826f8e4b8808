import type { ClubFactions } from "./factions.facts";

/**
 * What a character may be, from the club's list (kind "factions"): the rules the character form
 * follows in the page and on the server. A character keeps the names it was saved with, so its
 * own faction and job stay choosable after they are retired (or renamed out of the list); no
 * other retired one is. Plain functions without Zod or the database, for the browser too.
 */

/** A character's faction and job as saved; null for a member without a character yet. */
export type SavedChoice = { faction: string; job: string } | null;

/** An entry the form offers: `retired` for the character's own one that is no longer offered. */
export type Offered = { name: string; retired: boolean };

/** The factions the form offers, in the list's order; the character's own retired one after them. */
export function factionsOffered(list: ClubFactions, saved: SavedChoice): Offered[] {
  const offered: Offered[] = list.factions.filter((f) => !f.retired).map((f) => ({ name: f.name, retired: false }));
  if (saved && !offered.some((f) => f.name === saved.faction)) offered.push({ name: saved.faction, retired: true });
  return offered;
}

/** Whether `job` (an entry of the list) may be taken by a member of `faction`. */
export function isOpenTo(job: ClubFactions["jobs"][number], faction: string): boolean {
  return job.faction === null || job.faction === faction;
}

/**
 * The jobs the form offers, in the list's order, the character's own retired one after them;
 * only those open to `faction` when one is given (the page filters as the faction is chosen).
 */
export function jobsOffered(list: ClubFactions, saved: SavedChoice, faction?: string): Offered[] {
  const open = (job: ClubFactions["jobs"][number]) => faction === undefined || isOpenTo(job, faction);
  const offered: Offered[] = list.jobs
    .filter((job) => !job.retired && open(job))
    .map((job) => ({ name: job.name, retired: false }));
  if (saved && !offered.some((job) => job.name === saved.job)) {
    const own = list.jobs.find((job) => job.name === saved.job);
    if (!own || open(own)) offered.push({ name: saved.job, retired: true });
  }
  return offered;
}

/** Why a chosen faction or job cannot be saved: not one of the list's, or retired since. */
export type ChoiceProblem = "unknown" | "retired";

export function factionProblem(list: ClubFactions, saved: SavedChoice, faction: string): ChoiceProblem | null {
  if (saved?.faction === faction) return null;
  const entry = list.factions.find((f) => f.name === faction);
  return !entry ? "unknown" : entry.retired ? "retired" : null;
}

export function jobProblem(list: ClubFactions, saved: SavedChoice, job: string): ChoiceProblem | null {
  if (saved?.job === job) return null;
  const entry = list.jobs.find((j) => j.name === job);
  return !entry ? "unknown" : entry.retired ? "retired" : null;
}

/**
 * Whether the pair may be saved: the job open to the faction, or the pair exactly as the
 * character was saved with it (the list may since have opened the job to another faction only).
 */
export function pairFits(list: ClubFactions, saved: SavedChoice, faction: string, job: string): boolean {
  if (saved?.faction === faction && saved.job === job) return true;
  const entry = list.jobs.find((j) => j.name === job);
  // The character's own job, no longer in the list: nothing says whom it is closed to.
  return entry ? isOpenTo(entry, faction) : saved?.job === job;
}

/**
 * The hint under the job: "Soldier is open only to the US Survey Corp, Natural Scientist only to
 * the Union Research Initiative."; null when every job is open to every faction.
 */
export function factionOnlyHint(list: ClubFactions): string | null {
  const offered = new Set(list.factions.filter((f) => !f.retired).map((f) => f.name));
  const only = list.jobs.filter((job) => !job.retired && job.faction !== null && offered.has(job.faction));
  if (only.length === 0) return null;
  return `${only.map((job, n) => `${job.name}${n === 0 ? " is open" : ""} only to the ${job.faction}`).join(", ")}.`;
}
