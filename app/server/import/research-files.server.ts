import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { fileTypeFromFile } from "file-type";
import { type UPLOAD_MIME_TYPES } from "~/game/rules";
import { research } from "../db/schema";
import { displayName } from "../research.server";
import { fileSize, saveFile } from "../storage/storage.server";
import { eachRow, type ImportContext } from "./context.server";
import type { CsvRow, CsvTable } from "./csv.server";
import { RESEARCH_FILES_DIR } from "./format.server";
import { referencesOf } from "./owners.server";
import { requiredTimestamp, shown, Skip, stableUuid, text } from "./values.server";
import { submissionId, submissionKey } from "./submissions.server";

const EXTENSIONS: Record<(typeof UPLOAD_MIME_TYPES)[number], string> = { "image/jpeg": "jpg", "image/png": "png", "application/pdf": "pdf" };

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
  let decoded: string[] = [];
  try {
    decoded = parts.map((part) => decodeURIComponent(part));
  } catch {
    decoded = [];
  }
  if (decoded.length !== 2 || !decoded.every(safeSegment)) throw new Skip("file_url does not end in /research/<user id>/<file>", shown(fileUrl));
  return decoded as [string, string];
}

/** The file in the export, its size and its type judged by content (JPG, PNG or PDF only). */
async function exportedFile(ctx: ImportContext, row: CsvRow) {
  const [owner, name] = bucketPath(row.cells.file_url ?? null);
  const source = path.join(ctx.dir, ...RESEARCH_FILES_DIR, owner, name);
  const stat = await fs.promises.stat(source).catch(() => null);
  if (!stat?.isFile()) throw new Skip("missing file", `(${[...RESEARCH_FILES_DIR, owner, name].join("/")})`);
  const sniffed = await fileTypeFromFile(source);
  const mime = sniffed?.mime as (typeof UPLOAD_MIME_TYPES)[number] | undefined;
  if (!mime || !(mime in EXTENSIONS)) throw new Skip("file is not a JPG, PNG or PDF", `(${name.slice(0, 60)})`);
  return { source, name, size: stat.size, mime, extension: EXTENSIONS[mime] };
}

/** Copies the file into the site's storage under `key`, unless an earlier run already did. */
async function storeOnce(ctx: ImportContext, key: string, file: { source: string; size: number; mime: string }): Promise<void> {
  if ((await fileSize(key)) === file.size) {
    ctx.report.files.alreadyStored++;
    return;
  }
  ctx.writtenFiles.push(key);
  await saveFile(key, fs.createReadStream(file.source), { size: file.size, contentType: file.mime });
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
    const [held] = await ctx.tx.select({ id: research.id }).from(research).where(eq(research.id, id));
    if (held) return "unchanged";
    const file = await exportedFile(ctx, row);
    // Named after the row, so a second run finds its file, and two rows never share one.
    const key = `research/${userId}/imported-${stableUuid("hopewell-import-file", id).replaceAll("-", "")}.${file.extension}`;
    await storeOnce(ctx, key, file);
    await ctx.tx.insert(research).values({
      id,
      submissionKey: submissionKey("research", id),
      userId,
      eventId,
      sources: text(row.cells.sources ?? null),
      research: text(row.cells.research ?? null),
      fileKey: key,
      fileName: displayName(file.name),
      fileType: file.mime,
      fileSize: file.size,
      createdAt,
    });
    return "imported";
  });
}
