import { z } from "zod";
import { STARTING_COMMON_JOBS, STARTING_FACTION_ONLY_JOBS, STARTING_FACTIONS } from "~/game/factions";

/**
 * The factions and the jobs a character may take (kind "factions"), as the club keeps them. A job
 * with a faction is open to that faction only. Characters keep the names they were saved with: a
 * retired faction or job is no longer offered, but a character that has one opens and saves.
 */

export const FACTIONS_MAX = 30;
export const JOBS_MAX = 100;

export const FACTION_MESSAGES = {
  faction: "Name the faction, up to 60 characters.",
  job: "Name the job, up to 60 characters.",
  factionTaken: "Another faction has this name: give each its own.",
  jobTaken: "Another job has this name: give each its own.",
  unknownFaction: "Choose one of the factions for this job, or every faction.",
  tooManyFactions: `The list holds at most ${FACTIONS_MAX} factions.`,
  tooManyJobs: `The list holds at most ${JOBS_MAX} jobs.`,
} as const;

export const FactionSchema = z.object({
  name: z.string().trim().min(1, FACTION_MESSAGES.faction).max(60, FACTION_MESSAGES.faction),
  retired: z.boolean(),
});

export const JobSchema = z.object({
  name: z.string().trim().min(1, FACTION_MESSAGES.job).max(60, FACTION_MESSAGES.job),
  /** The one faction that may take it; null when every faction may. */
  faction: z.string().nullable(),
  retired: z.boolean(),
});

const unique = (names: string[]) => new Set(names.map((n) => n.toLowerCase())).size === names.length;

export const FactionsSchema = z
  .object({
    factions: z.array(FactionSchema).max(FACTIONS_MAX, FACTION_MESSAGES.tooManyFactions),
    jobs: z.array(JobSchema).max(JOBS_MAX, FACTION_MESSAGES.tooManyJobs),
  })
  .refine((list) => unique(list.factions.map((f) => f.name)), FACTION_MESSAGES.factionTaken)
  .refine((list) => unique(list.jobs.map((j) => j.name)), FACTION_MESSAGES.jobTaken)
  .refine(
    (list) => list.jobs.every((job) => job.faction === null || list.factions.some((f) => f.name === job.faction)),
    FACTION_MESSAGES.unknownFaction,
  );
export type ClubFactions = z.infer<typeof FactionsSchema>;

/** Today's four factions, ten common jobs and the two open to one faction. */
export function startingFactions(): ClubFactions {
  return {
    factions: STARTING_FACTIONS.map((name) => ({ name, retired: false })),
    jobs: [
      ...STARTING_COMMON_JOBS.map((name) => ({ name, faction: null, retired: false })),
      ...Object.entries(STARTING_FACTION_ONLY_JOBS).map(([name, faction]) => ({ name, faction, retired: false })),
    ],
  };
}
