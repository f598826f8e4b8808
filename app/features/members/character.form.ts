import { z } from "zod";
import { FACTIONS, isValidFactionJob, JOBS } from "~/game/factions";
import { answer } from "./application.form";
import { MESSAGES } from "~/web/forms/messages";
import { BACKSTORY_MAX, CHARACTER_NAME_MAX, INVALID_JOB } from "./character.limits";

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
