import busboy from "busboy";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { spool, type SpooledFile } from "~/platform/storage/spool.server";

/** The form's file as sent: its name as the member's computer gave it, and its bytes on disk. */
export type UploadedFile = SpooledFile & { name: string };

export type MultipartLimits = {
  /** The form's one file field; a file under any other name is skipped. */
  fileField: string;
  /** The largest file taken; one byte more and the form is refused as too large. */
  maxFileBytes: number;
  /** How many text fields, and how long each may be: a longer one is cut there (and its own check then refuses it). */
  maxFields: number;
  maxFieldBytes: number;
};

export type MultipartForm =
  | { ok: true; values: Record<string, string>; file?: UploadedFile }
  | { ok: false; problem: "too-large" | "unreadable"; values: Record<string, string> };

/**
 * Reads a multipart form as it arrives (busboy): its text fields, and its one file written to
 * the spool on disk chunk by chunk (app/platform/storage/spool.server.ts), so an upload never sits
 * whole in memory. A file past `maxFileBytes` stops the reading there ("too-large"); a body that
 * is not the form it claims to be, or carries more files or fields than the form has, is
 * "unreadable". An empty file field (nothing chosen) is no file. The caller discards the file
 * once it is stored or refused.
 */
export async function readMultipartForm(request: Request, limits: MultipartLimits): Promise<MultipartForm> {
  const values: Record<string, string> = {};
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!request.body || !/^multipart\/form-data/i.test(contentType)) return { ok: false, problem: "unreadable", values };
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Browsers send a file's name in UTF-8.
      defParamCharset: "utf8",
      // busboy flags a file when it reaches fileSize: one byte more than the largest taken.
      limits: {
        files: 1,
        fileSize: limits.maxFileBytes + 1,
        fields: limits.maxFields,
        fieldSize: limits.maxFieldBytes,
      },
    });
  } catch {
    // No boundary, or a content type busboy does not read.
    return { ok: false, problem: "unreadable", values };
  }

  let problem: "too-large" | "unreadable" | undefined;
  const stop = new AbortController();
  const refuse = (why: "too-large" | "unreadable") => {
    problem ??= why;
    // Not from inside busboy's own event: it goes on using the part it was reading after emitting.
    process.nextTick(() => stop.abort());
  };
  let spooling: Promise<UploadedFile | undefined> = Promise.resolve(undefined);
  parser.on("field", (name, value) => (values[name] = value));
  parser.on("file", (name, stream, info) => {
    if (name !== limits.fileField) return void stream.resume();
    stream.once("limit", () => refuse("too-large"));
    // Settled here, whatever happens: a write that fails (the disk, or the reading stopped) refuses the form.
    spooling = spool(stream).then(
      (spooled) => ({ ...spooled, name: info.filename ?? "" }),
      () => void refuse("unreadable"),
    );
  });
  parser.once("filesLimit", () => refuse("unreadable")).once("fieldsLimit", () => refuse("unreadable"));

  try {
    await pipeline(Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>), parser, { signal: stop.signal });
  } catch {
    // Stopped above, or the body is not well-formed multipart, or the client went away.
    problem ??= "unreadable";
  }
  const file = await spooling;
  if (problem) {
    await file?.discard();
    return { ok: false, problem, values };
  }
  if (file?.size === 0) {
    await file.discard();
    return { ok: true, values };
  }
  return { ok: true, values, file };
}
