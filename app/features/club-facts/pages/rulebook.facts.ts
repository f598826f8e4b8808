import { z } from "zod";

/**
 * Where the rulebook viewer's document comes from (kind "rulebook"): the site's built-in one (or
 * the operator's RULEBOOK_PDF / RULEBOOK_EMBED_URL when set), a link a manager gives, or a PDF a
 * manager uploaded, kept by the storage module under `key`.
 */

export const RULEBOOK_MESSAGES = {
  url: "Give the rulebook's address, starting with https://.",
  file: "Choose a PDF of the rulebook, up to 5 MB.",
} as const;

export const RulebookSchema = z.discriminatedUnion("source", [
  z.object({ source: z.literal("built-in") }),
  z.object({
    source: z.literal("link"),
    url: z
      .string()
      .trim()
      .max(2000, RULEBOOK_MESSAGES.url)
      .regex(/^https:\/\/[^\s]+$/i, RULEBOOK_MESSAGES.url),
  }),
  z.object({
    source: z.literal("file"),
    key: z.string().min(1),
    fileName: z.string().min(1).max(255),
    size: z.number().int().positive(),
  }),
]);
export type ClubRulebook = z.infer<typeof RulebookSchema>;

export function startingRulebook(): ClubRulebook {
  return { source: "built-in" };
}
