import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { COSTUME_MESSAGES } from "./costume.form";
import { readMultipartForm, type UploadedFile } from "~/web/forms/multipart.server";

/** A costume photo as sent: the form's text fields and the chosen file (on disk), if any. */
export type CostumeUpload = { values: Record<string, string>; file?: UploadedFile };

export type ReadCostumeUpload =
  ({ ok: true } & CostumeUpload) | { ok: false; status: 400 | 413; message: string; values: Record<string, string> };

/**
 * Reads the costume form's multipart body as it arrives: its few fields and one photo of at
 * most 5 MB written to disk, never held whole in memory. A larger photo is cut off there (413).
 * Judging the photo's content is the domain's; the caller discards the file.
 */
export async function readCostumeUpload(request: Request): Promise<ReadCostumeUpload> {
  const form = await readMultipartForm(request, {
    fileField: "photo",
    maxFileBytes: UPLOAD_MAX_BYTES,
    maxFields: 5,
    maxFieldBytes: 64 * 1024,
  });
  if (form.ok) return { ok: true, values: form.values, file: form.file };
  if (form.problem === "too-large")
    return { ok: false, status: 413, message: COSTUME_MESSAGES.fileSize, values: form.values };
  // A body that is not the multipart it claims to be: the form was not sent by the page.
  return { ok: false, status: 400, message: COSTUME_MESSAGES.chooseFile, values: form.values };
}
