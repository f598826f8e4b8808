import { parseFormData, type FileUpload } from "@remix-run/form-data-parser";
import { MaxFileSizeExceededError, MaxTotalSizeExceededError } from "@remix-run/multipart-parser";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { COSTUME_MESSAGES } from "./costume";

/** A costume photo as sent: the form's text fields and the chosen file, if any. */
export type CostumeUpload = { values: Record<string, string>; file?: Blob };

export type ReadCostumeUpload = ({ ok: true } & CostumeUpload) | { ok: false; status: 400 | 413; message: string; values: Record<string, string> };

/**
 * Reads the costume form's multipart body: its few fields and one photo of at most 5 MB.
 * The body is read only up to the limits, so an oversized photo costs at most 5 MB of memory
 * and is cut off there (413). Judging the photo's content is the domain's.
 */
export async function readCostumeUpload(request: Request): Promise<ReadCostumeUpload> {
  const values: Record<string, string> = {};
  let file: Blob | undefined;
  try {
    const form = await parseFormData(request, { maxFileSize: UPLOAD_MAX_BYTES, maxTotalSize: UPLOAD_MAX_BYTES + 64 * 1024, maxFiles: 1, maxParts: 6 }, async (upload: FileUpload) => {
      if (upload.fieldName === "photo" && upload.size > 0) file = upload;
      return null;
    });
    for (const [key, value] of form.entries()) if (typeof value === "string") values[key] = value;
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return { ok: false, status: 413, message: COSTUME_MESSAGES.fileSize, values };
    }
    // A body that is not the multipart it claims to be: the form was not sent by the page.
    return { ok: false, status: 400, message: COSTUME_MESSAGES.chooseFile, values };
  }
  return { ok: true, values, file };
}
