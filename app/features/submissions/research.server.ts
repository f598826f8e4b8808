import fs from "node:fs";
import { isUuid } from "~/lib/ids";
import { and, eq, ne } from "drizzle-orm";
import { fieldErrors, type FieldErrors } from "~/web/forms/kernel";
import { allowedExtension, ResearchForm, researchMessage } from "./research.form";
import type { ResearchUpload } from "./research-upload.server";
import { RESEARCH_MESSAGES } from "./submissions.messages";
import { UPLOAD_MIME_TYPES } from "~/game/rules";
import type { SessionUser } from "~/lib/navigation";
import { hasStaffRights } from "~/web/assurance.server";
import { database } from "~/platform/db/client.server";
import { events, research } from "~/platform/db/schema";
import { removeFile, researchKey, saveFile } from "~/platform/storage/storage.server";

export type ResearchOutcome =
  { ok: true } | { ok: false; message: string; errors?: FieldErrors; values: Record<string, string> };

/** A name safe to show and to put in a header: no path, no control characters. */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "file";
  // Control characters and quotes would break a header or a screen reader's reading.
  const printable = [...base].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f && c !== '"').join("");
  return printable.slice(0, 200) || "file";
}

/**
 * Files a research paper: checks the fields and the file (already on disk, see
 * readResearchUpload), whose type is judged by its content; the file is then streamed to
 * storage (a folder or S3), and its row written only once it is stored. A refusal gives back
 * what was typed.
 */
export async function submitResearch(user: SessionUser, { values, file }: ResearchUpload): Promise<ResearchOutcome> {
  const parsed = ResearchForm.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return { ok: false, message: researchMessage(errors), errors, values };
  }
  if (!file)
    return { ok: false, message: RESEARCH_MESSAGES.fillAll, errors: { file: RESEARCH_MESSAGES.fillAll }, values };
  const extension = allowedExtension(file.name);
  // Loaded with the first upload: about 10 MB an idle server need not hold.
  const sniffed = await (await import("file-type")).fileTypeFromFile(file.path);
  if (!extension || !sniffed || !(UPLOAD_MIME_TYPES as readonly string[]).includes(sniffed.mime)) {
    return { ok: false, message: RESEARCH_MESSAGES.fileType, errors: { file: RESEARCH_MESSAGES.fileType }, values };
  }

  const db = await database();
  const [event] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.id, parsed.data.eventId), ne(events.status, "cancelled")));
  if (!event)
    return {
      ok: false,
      message: RESEARCH_MESSAGES.fillAll,
      errors: { eventId: "Please choose one of the listed events" },
      values,
    };

  const key = researchKey(user.id, extension);
  await saveFile(key, fs.createReadStream(file.path), { size: file.size, contentType: sniffed.mime });
  try {
    const inserted = await db
      .insert(research)
      .values({
        submissionKey: parsed.data.submissionKey,
        userId: user.id,
        eventId: event.id,
        sources: parsed.data.sources,
        research: parsed.data.research,
        fileKey: key,
        fileName: displayName(file.name),
        fileType: sniffed.mime,
        fileSize: file.size,
      })
      .onConflictDoNothing({ target: research.submissionKey })
      .returning({ id: research.id });
    // A resubmitted form: the first upload stands, this copy is not kept.
    if (inserted.length === 0) await removeFile(key);
    return { ok: true };
  } catch (error) {
    await removeFile(key);
    throw error;
  }
}

/** A research file with what the viewer may see of it, or null when they may not. */
export async function researchFileFor(viewer: SessionUser, id: string) {
  if (!isUuid(id)) return null;
  const db = await database();
  const [row] = await db
    .select({
      userId: research.userId,
      fileKey: research.fileKey,
      fileName: research.fileName,
      fileType: research.fileType,
    })
    .from(research)
    .where(eq(research.id, id));
  if (!row) return null;
  return row.userId === viewer.id || hasStaffRights(viewer) ? row : null;
}
