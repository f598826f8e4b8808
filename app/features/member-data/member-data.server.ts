import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import yazl from "yazl";
import { database, rawRows } from "~/platform/db/client.server";
import { memberExports, profiles } from "~/platform/db/schema";
import { siteOrigin } from "~/identity/auth.server";
import { logger } from "~/platform/logger.server";
import type { TimerJob } from "~/platform/jobs.server";
import { letterBodies } from "~/platform/mail/templates.server";
import { queueEmail, type EmailMessage } from "~/platform/outbox/outbox.server";
import { exportKey, fileSize, openFile, removeFile, saveFile } from "~/platform/storage/storage.server";
import { collectMemberData } from "./collect.server";

/**
 * "Take it out": everything the site holds about a member, as one ZIP of a JSON file
 * (data.json) and their research files and costume photos (files/…). A request is a row of member_exports; the
 * worker (in every app process: a claim is a row lock, so two never build one) builds the
 * ZIP into a temporary file, stores it, marks the row ready and queues an email in one
 * transaction. Only the owner downloads it, until it expires.
 */

/** How long a prepared file can be downloaded. */
export const EXPORT_KEEP_MS = 7 * 24 * 60 * 60_000;
/** A build claimed longer ago than this (its process died) is taken again. */
const BUILD_LEASE_MS = 10 * 60_000;
export const EXPORT_POLL_MS = 30_000;

export type MemberExport = typeof memberExports.$inferSelect;

/** Builds the member's ZIP into a temporary file; returns its path and size. */
async function buildZip(userId: string): Promise<{ file: string; size: number } | null> {
  const db = await database();
  const collected = await collectMemberData(db, userId);
  if (!collected) return null;
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "hopewell-export-"));
  const file = path.join(dir, "export.zip");
  try {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify(collected.json, null, 2)), "data.json");
    const missing: string[] = [];
    for (const entry of collected.files) {
      if ((await fileSize(entry.key)) === null) {
        missing.push(entry.name);
        continue;
      }
      // Opened only when the ZIP reaches this entry (a generator runs when first read), so one
      // file is open at a time however many there are.
      const bytes = Readable.from(
        (async function* () {
          const opened = await openFile(entry.key);
          if (!opened) throw new Error("a research file disappeared while its export was built");
          yield* opened.stream;
        })(),
      );
      zip.addReadStream(bytes, entry.name);
    }
    if (missing.length > 0)
      zip.addBuffer(
        Buffer.from(`These files were missing from storage:\n${missing.join("\n")}\n`),
        "MISSING-FILES.txt",
      );
    zip.end();
    await pipeline(zip.outputStream, fs.createWriteStream(file));
    const { size } = await fs.promises.stat(file);
    return { file, size };
  } catch (error) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function exportReadyEmail({
  to,
  firstName,
  link,
  expiresAt,
}: {
  to: string;
  firstName: string;
  link: string;
  expiresAt: Date;
}): EmailMessage {
  const until = expiresAt.toUTCString();
  const paragraphs = [
    `Howdy ${firstName},`,
    "The copy of your data you asked for is ready: one ZIP file with everything the Hopewell members' site holds about you.",
    `Sign in and download it from your profile's "My data" page until ${until}. After that it is deleted, and you can ask for a new one.`,
    "If you did not ask for it, sign in and change your password: only you can download it.",
  ];
  return {
    to,
    subject: "Your Hopewell data is ready to download",
    ...letterBodies("Your data is ready", paragraphs, { label: "Open My data", url: link, lead: "My data" }),
  };
}

/** The member's newest export request, if any (the page shows its state). */
export async function latestExport(userId: string): Promise<MemberExport | null> {
  const db = await database();
  const [row] = await db
    .select()
    .from(memberExports)
    .where(eq(memberExports.userId, userId))
    .orderBy(desc(memberExports.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * Asks for an export. A request already waiting or being built is the one answered:
 * a member cannot queue many builds.
 */
export async function requestExport(userId: string): Promise<MemberExport> {
  const db = await database();
  const row = await db.transaction(async (tx) => {
    // The member's profile row serialises their requests.
    await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, userId)).for("update");
    const [open] = await tx
      .select()
      .from(memberExports)
      .where(and(eq(memberExports.userId, userId), inArray(memberExports.status, ["pending", "building"])))
      .limit(1);
    if (open) return open;
    const [created] = await tx.insert(memberExports).values({ userId }).returning();
    return created!;
  });
  prepareExportsSoon();
  return row;
}

/** Takes the oldest waiting request (or one whose builder died), marking it as being built. */
async function claimExport(): Promise<MemberExport | null> {
  const db = await database();
  const rows = await rawRows<{ id: string }>(
    db,
    sql`
    update member_exports set status = 'building', started_at = now()
    where id = (
      select id from member_exports
      where status = 'pending' or (status = 'building' and started_at < now() - ${`${BUILD_LEASE_MS} milliseconds`}::interval)
      order by created_at limit 1 for update skip locked
    )
    returning id`,
  );
  const id = rows[0]?.id;
  if (!id) return null;
  const [row] = await db.select().from(memberExports).where(eq(memberExports.id, id));
  return row ?? null;
}

async function buildExport(job: MemberExport): Promise<void> {
  const db = await database();
  let built: { file: string; size: number } | null = null;
  try {
    built = await buildZip(job.userId);
    if (!built) return; // The member is gone; their rows went with them.
    const key = exportKey(job.userId);
    await saveFile(key, fs.createReadStream(built.file), { size: built.size, contentType: "application/zip" });
    const expiresAt = new Date(Date.now() + EXPORT_KEEP_MS);
    const marked = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(memberExports)
        .set({ status: "ready", fileKey: key, fileSize: built!.size, readyAt: sql`now()`, expiresAt, lastError: null })
        .where(and(eq(memberExports.id, job.id), eq(memberExports.status, "building")))
        .returning({ id: memberExports.id });
      if (!row) return false;
      const [member] = await tx
        .select({ email: profiles.email, firstName: profiles.firstName })
        .from(profiles)
        .where(eq(profiles.id, job.userId));
      if (member)
        await queueEmail(
          tx,
          exportReadyEmail({
            to: member.email,
            firstName: member.firstName,
            link: `${siteOrigin()}/profile/data`,
            expiresAt,
          }),
        );
      return true;
    });
    // The request was withdrawn (the account deleted) while this was built: the file goes too.
    if (!marked)
      await removeFile(key).catch((error: unknown) =>
        logger.warn(
          { err: error, exportId: job.id },
          "removing an unclaimed export file failed; the orphan sweep removes it",
        ),
      );
    else logger.info({ exportId: job.id, bytes: built.size }, "member data export ready");
  } catch (error) {
    logger.error({ err: error, exportId: job.id }, "building a member data export failed");
    const message = error instanceof Error ? error.message.slice(0, 500) : "failed";
    await db.update(memberExports).set({ status: "failed", lastError: message }).where(eq(memberExports.id, job.id));
  } finally {
    if (built) await fs.promises.rm(path.dirname(built.file), { recursive: true, force: true });
  }
}

/** Removes expired files and their rows, and old failed requests. Row first: a file left by a failed removal is swept later. */
export async function pruneExpiredExports(): Promise<number> {
  const db = await database();
  const gone = await db
    .delete(memberExports)
    .where(
      or(
        lt(memberExports.expiresAt, sql`now()`),
        and(eq(memberExports.status, "failed"), lt(memberExports.createdAt, sql`now() - interval '7 days'`)),
      ),
    )
    .returning({ fileKey: memberExports.fileKey });
  for (const { fileKey } of gone) {
    if (fileKey)
      await removeFile(fileKey).catch((error: unknown) =>
        logger.warn({ err: error }, "removing an expired export file failed; the orphan sweep removes it"),
      );
  }
  return gone.length;
}

/** Builds every waiting request, one after another. */
export async function runExportRound(): Promise<number> {
  let built = 0;
  for (let job = await claimExport(); job; job = await claimExport()) {
    await buildExport(job);
    built++;
  }
  return built;
}

let round: Promise<unknown> | null = null;
/** Starts a round now unless one is running in this process; one running picks new requests up. */
export function prepareExportsSoon(): Promise<unknown> {
  round ??= runExportRound()
    .catch((error: unknown) => logger.error({ err: error }, "member data export round failed"))
    .finally(() => (round = null));
  return round;
}

/** Waits for this process's round in progress (tests, shutdown). */
export async function exportsSettled(): Promise<void> {
  while (round) await round;
}

/** Builds waiting requests (those left by a restart too) and removes expired files, every `pollMs`. */
export function exportJob(pollMs = EXPORT_POLL_MS): TimerJob {
  return {
    name: "pruning member data exports",
    firstAfterMs: 1_000,
    everyMs: pollMs,
    run: () => {
      void prepareExportsSoon();
      return pruneExpiredExports();
    },
    handedOn: exportsSettled,
  };
}

/** The member's own ready, unexpired export, or null (someone else's is never found). */
export async function ownExportFile(
  userId: string,
  exportId: string,
): Promise<{ fileKey: string; createdAt: Date } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(exportId)) return null;
  const db = await database();
  const [row] = await db
    .select({ fileKey: memberExports.fileKey, createdAt: memberExports.createdAt })
    .from(memberExports)
    .where(
      and(
        eq(memberExports.id, exportId),
        eq(memberExports.userId, userId),
        eq(memberExports.status, "ready"),
        sql`${memberExports.expiresAt} > now()`,
      ),
    );
  return row?.fileKey ? { fileKey: row.fileKey, createdAt: row.createdAt } : null;
}
