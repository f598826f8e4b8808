import { z } from "zod";
import { UPLOAD_MAX_BYTES } from "~/game/rules";

/**
 * Where the rulebook viewer's document comes from (kind "rulebook"): the site's built-in one (or
 * the operator's RULEBOOK_PDF / RULEBOOK_EMBED_URL when set), a link a manager gives, or a PDF a
 * manager uploaded, kept by the storage module under `key`.
 */

export const RULEBOOK_MESSAGES = {
  url: "Give the rulebook's address, starting with https://.",
  file: "Choose a PDF of the rulebook, up to 5 MB.",
  failed: "The rulebook could not be saved. Please try again in a moment.",
} as const;

/**
 * An address a browser can open: https, and a host name (the viewer's document allows that one
 * origin to be framed, so it goes into a Content-Security-Policy: letters, digits, dots and dashes only).
 */
function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" && /^[a-z0-9.-]+$/i.test(url.hostname);
  } catch {
    return false;
  }
}

/** The largest PDF taken, as for every upload of the site. */
export const RULEBOOK_MAX_BYTES = UPLOAD_MAX_BYTES;

/** What is wrong with a chosen file by its name and size, in the page before it is sent (the server judges its content). */
export function rulebookFileProblem(file: { name: string; size: number } | null | undefined): string | null {
  if (!file || file.size === 0 || file.size > RULEBOOK_MAX_BYTES || !/\.pdf$/i.test(file.name))
    return RULEBOOK_MESSAGES.file;
  return null;
}

export const RulebookSchema = z.discriminatedUnion("source", [
  z.object({ source: z.literal("built-in") }),
  z.object({
    source: z.literal("link"),
    url: z
      .string()
      .trim()
      .max(2000, RULEBOOK_MESSAGES.url)
      .regex(/^https:\/\/[^\s]+$/i, RULEBOOK_MESSAGES.url)
      .refine(isWebAddress, RULEBOOK_MESSAGES.url),
  }),
  z.object({
    source: z.literal("file"),
    key: z.string().regex(/^rulebook\/[A-Za-z0-9_-]{8,64}\.pdf$/),
    fileName: z.string().min(1).max(255),
    size: z.number().int().positive(),
  }),
]);
export type ClubRulebook = z.infer<typeof RulebookSchema>;

export function startingRulebook(): ClubRulebook {
  return { source: "built-in" };
}
