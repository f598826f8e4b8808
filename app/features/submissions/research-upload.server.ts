import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { readMultipartForm, type UploadedFile } from "~/web/forms/multipart.server";
import { RESEARCH_MESSAGES } from "./submissions.messages";

/** The research form as sent: its text fields, and the chosen file (on disk) if there is one. */
export type ResearchUpload = { values: Record<string, string>; file?: UploadedFile };

export type ReadUpload = ({ ok: true } & ResearchUpload) | { ok: false; status: 400 | 413; message: string };

/**
 * Reads the research form's multipart body as it arrives: the fields, and one file of at most
 * 5 MB written to disk, never held whole in memory. A larger file is cut off there (413).
 * Judging the fields and the file's content is the domain's; the caller discards the file.
 */
export async function readResearchUpload(request: Request): Promise<ReadUpload> {
  // Its text fields are a few: a field past 256 KB is far past its own limit (20,000 characters).
  const form = await readMultipartForm(request, {
    fileField: "file",
    maxFileBytes: UPLOAD_MAX_BYTES,
    maxFields: 9,
    maxFieldBytes: 256 * 1024,
  });
  if (form.ok) return { ok: true, values: form.values, file: form.file };
  if (form.problem === "too-large") return { ok: false, status: 413, message: RESEARCH_MESSAGES.fileSize };
  // A body that is not the multipart it claims to be: the form was not sent by the page.
  return { ok: false, status: 400, message: RESEARCH_MESSAGES.fillAll };
}
