import { z } from "zod";
import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES } from "~/game/rules";
import { isUuid } from "~/lib/ids";
import { textField } from "~/web/forms/kernel";
import { RESEARCH_MESSAGES } from "./submissions.messages";
import { submissionKey } from "./submissions.form";

export const RESEARCH_SOURCES_MAX = 10_000;
export const RESEARCH_NOTES_MAX = 20_000;

/** The research form's text fields; the file is checked by `fileProblem` and, on the server, by its content. */
export const ResearchForm = z.object({
  submissionKey,
  eventId: z.string({ error: RESEARCH_MESSAGES.fillAll }).refine(isUuid, RESEARCH_MESSAGES.fillAll),
  sources: textField(RESEARCH_SOURCES_MAX, {
    required: RESEARCH_MESSAGES.fillAll,
    tooLong: `Please keep the sources to ${RESEARCH_SOURCES_MAX.toLocaleString("en-US")} characters or fewer`,
  }),
  research: textField(RESEARCH_NOTES_MAX, {
    required: RESEARCH_MESSAGES.fillAll,
    tooLong: `Please keep your notes to ${RESEARCH_NOTES_MAX.toLocaleString("en-US")} characters or fewer`,
  }),
});

/** The original file name's extension, if it is one we accept. */
export function allowedExtension(name: string): string | null {
  const extension = name.toLowerCase().split(".").pop() ?? "";
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(extension) && name.includes(".") ? extension : null;
}

/** What is wrong with a chosen file by its name and size (the server then judges its content). */
export function fileProblem(file: { name: string; size: number } | null | undefined): string | null {
  if (!file || file.size === 0) return RESEARCH_MESSAGES.fillAll;
  if (!allowedExtension(file.name)) return RESEARCH_MESSAGES.fileType;
  if (file.size > UPLOAD_MAX_BYTES) return RESEARCH_MESSAGES.fileSize;
  return null;
}

/** The message at the top of a refused form: "fill in all fields" (docs/product.md#member-forms) unless a field says something else. */
export function researchMessage(errors: Record<string, string>): string {
  return Object.values(errors).find((message) => message !== RESEARCH_MESSAGES.fillAll) ?? RESEARCH_MESSAGES.fillAll;
}
