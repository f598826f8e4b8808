import type fs from "node:fs";
import { eq } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { RESEARCH_NOTES_MAX, RESEARCH_SOURCES_MAX } from "~/features/submissions/research.form";
import { UPLOAD_MAX_BYTES, type UPLOAD_MIME_TYPES } from "~/game/rules";
import { research } from "~/platform/db/schema";
import { displayName } from "~/features/submissions/research.server";
import { fileSize, saveFile } from "~/platform/storage/storage.server";
import { eachRow, type ImportContext } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { ExportFileRefused, openExportFile, type ExportFileProblem } from "./export-files.server";
import { RESEARCH_FILES_DIR } from "./format.server";
import { referencesOf } from "./owners.server";
import { limitedText, requiredTimestamp, shown, Skip, stableUuid } from "./values.server";
import { submissionId, submissionKey } from "./submissions.server";

const EXTENSIONS: Record<(typeof UPLOAD_MIME_TYPES)[number], string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "application/pdf": "pdf",
};

/** A path segment that names a file or folder inside its parent, and nothing else. */
function safeSegment(segment: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  return segment !== "" && segment !== "." && segment !== ".." && !/[/\\\u0000-\u001F]/.test(segment);
}

/**
 * The "<user id>/<file>" a research row's public URL ends in (…/research/<user id>/<file>),
 * each part decoded, or a Skip when the URL says something else.
 */
export function bucketPath(fileUrl: string | null): [string, string] {
  if (fileUrl === null) throw new Skip("no file_url");
  let pathname = fileUrl.trim();
  try {
    pathname = new URL(pathname).pathname;
  } catch {
    // A path rather than a URL.
    pathname = `/${pathname.split(/[?#]/)[0]!.replace(/^\/+/, "")}`;
  }
  const at = pathname.lastIndexOf("/research/");
  const parts = at < 0 ? [] : pathname.slice(at + "/research/".length).split("/");
  let decoded: string[];
  try {
    decoded = parts.map((part) => decodeURIComponent(part));
  } catch {
    decoded = [];
  }
  if (decoded.length !== 2 || !decoded.every(safeSegment))
    throw new Skip("file_url does not end in /research/<user id>/<file>", shown(fileUrl));
  return decoded as [string, string];
}

/** Why a research row's file was not taken, as the report counts it. */
const REFUSED_FILE: Record<ExportFileProblem, string> = {
  missing: "missing file",
  link: "file is a symbolic link",
  outside: "file is a link to outside the export",
  "not a file": "missing file",
};

/** Enough of a file's start for its type to be judged by content. */
const SNIFFED_BYTES = 4100;

type ExportedFile = { handle: fs.promises.FileHandle; name: string; size: number; mime: string; extension: string };

/**
 * The file in the export, opened, with its size and its type judged by content (JPG, PNG or PDF
 * only): never through a link, never from outside the export. The caller closes it.
 */
async function exportedFile(ctx: ImportContext, row: CsvRow): Promise<ExportedFile> {
  const [owner, name] = bucketPath(row.cells.file_url ?? null);
  const parts = [...RESEARCH_FILES_DIR, owner, name];
  let opened: Awaited<ReturnType<typeof openExportFile>>;
  try {
    opened = await openExportFile(ctx.dir, parts);
  } catch (error) {
    if (error instanceof ExportFileRefused) throw new Skip(REFUSED_FILE[error.problem], `(${parts.join("/")})`);
    throw error;
  }
  try {
    // The research form's limit: a larger file is one no member could have sent.
    if (opened.size > UPLOAD_MAX_BYTES)
      throw new Skip(
        "file larger than the site takes",
        `(${name.slice(0, 60)}: ${opened.size.toLocaleString("en-US")} bytes; at most ${UPLOAD_MAX_BYTES.toLocaleString("en-US")})`,
      );
    const start = Buffer.alloc(Math.min(SNIFFED_BYTES, opened.size));
    await opened.handle.read(start, 0, start.length, 0);
    const sniffed = await fileTypeFromBuffer(start);
    const mime = sniffed?.mime as (typeof UPLOAD_MIME_TYPES)[number] | undefined;
    if (!mime || !(mime in EXTENSIONS)) throw new Skip("file is not a JPG, PNG or PDF", `(${name.slice(0, 60)})`);
    return { handle: opened.handle, name, size: opened.size, mime, extension: EXTENSIONS[mime] };
  } catch (error) {
    await opened.handle.close();
    throw error;
  }
}

/** Copies the file into the site's storage under `key`, unless an earlier run already did; a check only counts it. */
async function storeOnce(ctx: ImportContext, key: string, file: ExportedFile): Promise<void> {
  if ((await fileSize(key)) === file.size) {
    ctx.report.files.alreadyStored++;
    return;
  }
  if (ctx.check) {
    ctx.report.files.copied++;
    return;
  }
  ctx.writtenFiles.push(key);
  await saveFile(key, file.handle.createReadStream({ start: 0, autoClose: false }), {
    size: file.size,
    contentType: file.mime,
  });
  ctx.report.files.copied++;
}

/**
 * Imports the research papers and copies each one's file from the export's research bucket
 * into the site's storage (a folder or S3), where its row then points. A row whose file is
 * not in the export is skipped.
 */
export async function importResearch(ctx: ImportContext, csv: CsvTable): Promise<void> {
  const refs = await referencesOf(ctx, csv, { events: true });
  const seen = new Map<string, number>();
  await eachRow(ctx, "research", csv, async (row) => {
    const id = submissionId("research", row, seen);
    const userId = refs.member(row);
    const eventId = refs.event(row);
    const createdAt = requiredTimestamp(row.cells.created_at ?? null, "created_at");
    const sources = limitedText(row.cells.sources ?? null, "sources", RESEARCH_SOURCES_MAX);
    const notes = limitedText(row.cells.research ?? null, "research", RESEARCH_NOTES_MAX);
    const [held] = await ctx.tx.select({ id: research.id }).from(research).where(eq(research.id, id));
    if (held) return "unchanged";
    const file = await exportedFile(ctx, row);
    // Named after the row, so a second run finds its file, and two rows never share one.
    const key = `research/${userId}/imported-${stableUuid("hopewell-import-file", id).replaceAll("-", "")}.${file.extension}`;
    try {
      await storeOnce(ctx, key, file);
    } finally {
      await file.handle.close();
    }
    await ctx.tx.insert(research).values({
      id,
      submissionKey: submissionKey("research", id),
      userId,
      eventId,
      sources,
      research: notes,
      fileKey: key,
      fileName: displayName(file.name),
      fileType: file.mime,
      fileSize: file.size,
      createdAt,
    });
    return "imported";
  });
}
