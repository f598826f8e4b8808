import { z } from "zod";
import type { ClubFactions } from "~/features/club-facts/factions/factions.facts";
import { factionProblem, jobProblem, pairFits, type SavedChoice } from "~/features/club-facts/factions/faction-choices";
import { answer } from "./application.form";
import { MESSAGES } from "~/web/forms/messages";
import { BACKSTORY_MAX, CHARACTER_NAME_MAX, INVALID_JOB, RETIRED_FACTION, RETIRED_JOB } from "./character.limits";

/**
 * The character form against the club's factions and jobs (`list`) and what the character was
 * saved with (`saved`): a faction and job of the list that are not retired, the job open to the
 * faction; the character's own faction and job stay allowed after they are retired. The page
 * builds the same schema from the same list, so it says in the browser what the server would.
 */
export function characterForm(list: ClubFactions, saved: SavedChoice) {
  return z
    .object({
      characterName: answer(CHARACTER_NAME_MAX),
      faction: z
        .string({ error: MESSAGES.required })
        .min(1, MESSAGES.required)
        .refine((faction) => factionProblem(list, saved, faction) !== "unknown", MESSAGES.required)
        .refine((faction) => factionProblem(list, saved, faction) !== "retired", RETIRED_FACTION),
      job: z
        .string({ error: MESSAGES.required })
        .min(1, MESSAGES.required)
        .refine((job) => jobProblem(list, saved, job) !== "unknown", MESSAGES.required)
        .refine((job) => jobProblem(list, saved, job) !== "retired", RETIRED_JOB),
      backstory: answer(BACKSTORY_MAX),
    })
    .refine((form) => pairFits(list, saved, form.faction, form.job), { path: ["job"], message: INVALID_JOB });
}

export type CharacterInput = z.infer<ReturnType<typeof characterForm>>;

export const BackstoryForm = z.object({ backstory: answer(BACKSTORY_MAX) });
