import { parseFormData, type FileUpload } from "@remix-run/form-data-parser";
import { MaxFileSizeExceededError, MaxTotalSizeExceededError } from "@remix-run/multipart-parser";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import { RESEARCH_MESSAGES } from "./submissions";

/** The research form as sent: its text fields, and the chosen file if there is one. */
export type ResearchUpload = { values: Record<string, string>; file?: { name: string; content: Blob } };

export type ReadUpload = ({ ok: true } & ResearchUpload) | { ok: false; status: 400 | 413; message: string };

/**
 * Reads the research form's multipart body: the fields, and one file of at most 5 MB. The
 * body is read only up to the limits, so an oversized upload costs at most 5 MB of memory
 * and is cut off there (413). Judging the fields and the file's content is the domain's.
 */
export async function readResearchUpload(request: Request): Promise<ReadUpload> {
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return { ok: false, status: 400, message: RESEARCH_MESSAGES.fillAll };
  }
  let file: ResearchUpload["file"];
  let form: FormData;
  try {
    form = await parseFormData(request, { maxFileSize: UPLOAD_MAX_BYTES, maxTotalSize: UPLOAD_MAX_BYTES + 256 * 1024, maxFiles: 1, maxParts: 10 }, async (upload: FileUpload) => {
      if (upload.fieldName === "file" && upload.size > 0) file = { name: upload.name, content: upload };
      return null;
    });
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return { ok: false, status: 413, message: RESEARCH_MESSAGES.fileSize };
    }
    // A body that is not the multipart it claims to be: the form was not sent by the page.
    return { ok: false, status: 400, message: RESEARCH_MESSAGES.fillAll };
  }
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
  return { ok: true, values, file };
}
