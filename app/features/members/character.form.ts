import { z } from "zod";
import { FACTIONS, isValidFactionJob, JOBS } from "~/game/factions";
import { answer } from "./application.form";
import { MESSAGES } from "~/web/forms/messages";

export const BACKSTORY_MAX = 20_000;
/** A character's name, wherever one is written: the character, a post-event letter, a letter's recipient. */
export const CHARACTER_NAME_MAX = 100;
export const INVALID_JOB = "That job is not open to your faction. Please choose another.";

export const CharacterForm = z
  .object({
    characterName: answer(CHARACTER_NAME_MAX),
    faction: z.enum(FACTIONS, { error: MESSAGES.required }),
    job: z.enum(JOBS, { error: MESSAGES.required }),
    backstory: answer(BACKSTORY_MAX),
  })
  .refine((form) => isValidFactionJob(form.faction, form.job), { path: ["job"], message: INVALID_JOB });

export type CharacterInput = z.infer<typeof CharacterForm>;

export const BackstoryForm = z.object({ backstory: answer(BACKSTORY_MAX) });
