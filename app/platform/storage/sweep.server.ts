import { and, eq, inArray, sql } from "drizzle-orm";
import { database, type Database } from "../db/client.server";
import { clubFactVersions, costumePhotos, memberExports, research } from "../db/schema";
import type { TimerJob } from "../jobs.server";
import { logger } from "../logger.server";
import { removeStaleSpooled } from "./spool.server";
import { listFiles, removeFile, removeStalePartials, type StoredFile } from "./storage.server";

/**
 * Files younger than this are never swept: an upload stores its file a moment before
 * its row is written, and a slow upload's temporary file grows for a while.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;
/** As often as the grace: what a crash leaves is gone within two of them, not a day later. Listing the files costs little. */
export const SWEEP_EVERY_MS = 60 * 60_000;
const BATCH = 500;

/**
 * The uploaded rulebooks among `keys` that a version of the club's rulebook names: every version
 * in the history, not only the one shown, so bringing an old one back finds its file.
 */
function rulebooksNamed(db: Database, keys: string[]) {
  const rulebooks = keys.filter((key) => key.startsWith("rulebook/"));
  if (rulebooks.length === 0) return Promise.resolve([]);
  const key = sql<string>`${clubFactVersions.content} ->> 'key'`;
  return db
    .select({ key })
    .from(clubFactVersions)
    .where(and(eq(clubFactVersions.kind, "rulebook"), inArray(key, rulebooks)));
}

async function removeUnreferenced(batch: StoredFile[]): Promise<string[]> {
  if (batch.length === 0) return [];
  const db = await database();
  const keys = batch.map((file) => file.key);
  const [papers, exports, photos, thumbnails, rulebooks] = await Promise.all([
    db.select({ key: research.fileKey }).from(research).where(inArray(research.fileKey, keys)),
    db.select({ key: memberExports.fileKey }).from(memberExports).where(inArray(memberExports.fileKey, keys)),
    db.select({ key: costumePhotos.fileKey }).from(costumePhotos).where(inArray(costumePhotos.fileKey, keys)),
    db.select({ key: costumePhotos.thumbKey }).from(costumePhotos).where(inArray(costumePhotos.thumbKey, keys)),
    rulebooksNamed(db, keys),
  ]);
  const referenced = new Set([...papers, ...exports, ...photos, ...thumbnails, ...rulebooks].map((row) => row.key));
  const orphans = keys.filter((key) => !referenced.has(key));
  for (const key of orphans) await removeFile(key);
  return orphans;
}

/**
 * Removes what a crash mid-upload leaves: temporary files (in storage, and uploads still in
 * DATA_DIR/uploads, spool.server.ts), and stored files no row names
 * (the process died between storing the file and writing its row, or a removal after an
 * account's deletion failed: its rows are gone, so its files are swept here). Only files older than
 * `graceMs` are considered, so an upload in flight is never touched, but for uploads in
 * DATA_DIR/uploads whose process is known to be gone.
 */
export async function sweepOrphanFiles(
  options: { now?: number; graceMs?: number } = {},
): Promise<{ partials: string[]; orphans: string[] }> {
  const before = new Date((options.now ?? Date.now()) - (options.graceMs ?? ORPHAN_GRACE_MS));
  const partials = [...(await removeStaleSpooled(before)), ...(await removeStalePartials(before))];
  const orphans: string[] = [];
  let batch: StoredFile[] = [];
  for await (const file of listFiles()) {
    if (file.modifiedAt >= before) continue;
    batch.push(file);
    if (batch.length >= BATCH) {
      orphans.push(...(await removeUnreferenced(batch)));
      batch = [];
    }
  }
  orphans.push(...(await removeUnreferenced(batch)));
  if (partials.length > 0 || orphans.length > 0) {
    logger.info(
      { partials, orphans },
      `removed ${partials.length} unfinished and ${orphans.length} unreferenced upload files`,
    );
  }
  return { partials, orphans };
}

/**
 * Sweeps at start-up (the restart after a crash clears that crash's uploads in DATA_DIR/uploads at
 * once) and then hourly. Several instances may sweep at once: removing is idempotent.
 */
export const orphanSweepJob: TimerJob = {
  name: "sweeping orphan upload files",
  firstAfterMs: 0,
  everyMs: SWEEP_EVERY_MS,
  run: () => sweepOrphanFiles(),
};
