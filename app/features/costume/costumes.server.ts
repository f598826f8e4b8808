import { and, asc, count, eq, gte, inArray } from "drizzle-orm";
import { COSTUME_MESSAGES } from "./costume.form";
import type { CostumeUpload } from "./costume-upload.server";
import {
  COSTUME_PHOTOS_PER_EVENT,
  costumeCountdown,
  costumeDueDate,
  costumeStatus,
  type CostumeStatus,
  type CostumeVerdict,
} from "~/game/costume";
import { canBuildCharacter, rolesWhere } from "~/game/roles";
import { clubToday } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import type { SessionUser } from "~/lib/navigation";
import { hasStaffRights } from "~/web/assurance.server";
import { costumeEntryId, reopenAnswered } from "~/features/review/review-queue.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { costumePhotos, costumeReviews, eventAttendance, events } from "~/platform/db/schema";
import { processPhoto, type PhotoType } from "./images.server";
import { logger } from "~/platform/logger.server";
import { costumeKeys, removeFile, saveFile } from "~/platform/storage/storage.server";

/**
 * Costume photos (docs/product.md#costume-rule: accepted players send a costume photo two weeks
 * before each event). A member registered for an upcoming event (event_attendance) sends photos for it;
 * cast and managers review them per event. Photos are private like research files: served only
 * through /costume/photos/<id> to their owner and staff.
 */

const PHOTO_TYPES: Record<PhotoType, "jpg" | "png"> = { "image/jpeg": "jpg", "image/png": "png" };

/** Members whose role has been accepted into the game: the ones the costume rule is for. */
export const ACCEPTED_ROLES = rolesWhere(canBuildCharacter);

export type CostumePhoto = { id: string; createdAt: string; width: number; height: number };
export type CostumeReview = { verdict: CostumeVerdict; note: string; reviewedAt: string };

export function reviewOf(
  row: { verdict: CostumeVerdict; note: string; reviewedAt: Date } | undefined,
): CostumeReview | null {
  return row ? { verdict: row.verdict, note: row.note, reviewedAt: row.reviewedAt.toISOString() } : null;
}

export function statusOf(
  photos: { createdAt: Date }[],
  review: { verdict: CostumeVerdict; reviewedAt: Date } | undefined,
): CostumeStatus {
  const newest = photos.reduce<Date | null>(
    (latest, p) => (!latest || p.createdAt > latest ? p.createdAt : latest),
    null,
  );
  return costumeStatus(photos.length, newest, review ?? null);
}

/** Upcoming (future, not yet past) events the member is registered for, soonest first. */
async function registeredUpcomingEvents(userId: string, today: string, eventId?: string) {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(eventAttendance)
    .innerJoin(events, eq(events.id, eventAttendance.eventId))
    .where(
      and(
        eq(eventAttendance.userId, userId),
        eq(events.status, "future"),
        gte(events.date, today),
        eventId ? eq(events.id, eventId) : undefined,
      ),
    )
    .orderBy(asc(events.date), asc(events.title));
}

export type MemberCostumeEvent = {
  id: string;
  title: string;
  date: string;
  dueDate: string;
  countdown: string;
  status: CostumeStatus;
  photos: CostumePhoto[];
  review: CostumeReview | null;
};

/** The member's page: each upcoming event they are registered for, with its due date, photos and verdict. */
export async function memberCostumeEvents(userId: string, now = new Date()): Promise<MemberCostumeEvent[]> {
  const today = clubToday(now);
  const upcoming = await registeredUpcomingEvents(userId, today);
  if (upcoming.length === 0) return [];
  const db = await database();
  const ids = upcoming.map((e) => e.id);
  const [photos, reviews] = await Promise.all([
    db
      .select()
      .from(costumePhotos)
      .where(and(eq(costumePhotos.userId, userId), inArray(costumePhotos.eventId, ids)))
      .orderBy(asc(costumePhotos.createdAt), asc(costumePhotos.id)),
    db
      .select()
      .from(costumeReviews)
      .where(and(eq(costumeReviews.userId, userId), inArray(costumeReviews.eventId, ids))),
  ]);
  return upcoming.map((event) => {
    const mine = photos.filter((p) => p.eventId === event.id);
    const review = reviews.find((r) => r.eventId === event.id);
    const dueDate = costumeDueDate(event.date);
    return {
      ...event,
      dueDate,
      countdown: costumeCountdown(dueDate, today),
      status: statusOf(mine, review),
      photos: mine.map((p) => ({ id: p.id, createdAt: p.createdAt.toISOString(), width: p.width, height: p.height })),
      review: reviewOf(review),
    };
  });
}

export type UploadOutcome = { ok: true } | { ok: false; status: number; message: string };

/**
 * Adds a photo to the member's costume for an upcoming event they are registered for. The file's
 * type is judged by its content (JPG or PNG); it is decoded and encoded again without its
 * metadata, a thumbnail is made, both are stored, and the row is written only once they are.
 */
export async function addCostumePhoto(
  user: SessionUser,
  { values, file }: CostumeUpload,
  now = new Date(),
): Promise<UploadOutcome> {
  const eventId = values.eventId;
  if (!isUuid(eventId) || (await registeredUpcomingEvents(user.id, clubToday(now), eventId)).length === 0) {
    return { ok: false, status: 400, message: COSTUME_MESSAGES.notRegistered };
  }
  if (!file) return { ok: false, status: 400, message: COSTUME_MESSAGES.chooseFile };
  // Loaded with the first upload: about 10 MB an idle server need not hold.
  const sniffed = await (await import("file-type")).fileTypeFromFile(file.path);
  const type = sniffed?.mime;
  if (type !== "image/jpeg" && type !== "image/png")
    return { ok: false, status: 400, message: COSTUME_MESSAGES.fileType };

  const db = await database();
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(costumePhotos)
    .where(and(eq(costumePhotos.userId, user.id), eq(costumePhotos.eventId, eventId)));
  if (n >= COSTUME_PHOTOS_PER_EVENT) return { ok: false, status: 400, message: COSTUME_MESSAGES.tooMany };

  // libvips reads the photo from disk: it is never copied whole into this process's memory.
  const outcome = await processPhoto(file.path, type);
  if (!outcome.ok)
    return {
      ok: false,
      status: 400,
      message: outcome.reason === "too-many-pixels" ? COSTUME_MESSAGES.tooManyPixels : COSTUME_MESSAGES.unreadable,
    };
  const { photo, thumb, width, height } = outcome.processed;

  const { fileKey, thumbKey } = costumeKeys(user.id, PHOTO_TYPES[type]);
  try {
    await saveFile(fileKey, photo, { contentType: type });
    await saveFile(thumbKey, thumb, { contentType: "image/jpeg" });
    await db.transaction(async (tx) => {
      await tx.insert(costumePhotos).values({
        userId: user.id,
        eventId,
        fileKey,
        thumbKey,
        fileType: type,
        fileSize: photo.byteLength,
        width,
        height,
      });
      // A photo sent after a verdict puts the member's entry back in the staff's queue.
      await reopenAnswered(tx, "costume", costumeEntryId(eventId, user.id));
    });
    return { ok: true };
  } catch (error) {
    await Promise.all([removeFile(fileKey), removeFile(thumbKey)]).catch(() => undefined);
    throw error;
  }
}

/** Removes one of the member's own photos (and its files); false when it is not theirs or gone. */
export async function removeCostumePhoto(userId: string, photoId: string): Promise<boolean> {
  if (!isUuid(photoId)) return false;
  const db = await database();
  const [gone] = await db
    .delete(costumePhotos)
    .where(and(eq(costumePhotos.id, photoId), eq(costumePhotos.userId, userId)))
    .returning({ fileKey: costumePhotos.fileKey, thumbKey: costumePhotos.thumbKey });
  if (!gone) return false;
  // The row is gone first: a file whose removal fails is left to the daily orphan sweep.
  await Promise.all([removeFile(gone.fileKey), removeFile(gone.thumbKey)]).catch((error: unknown) =>
    logger.warn({ err: error }, "removing a costume photo's file failed; the orphan sweep removes it"),
  );
  return true;
}

/** A photo (or its thumbnail) for its owner, cast and managers; null for anyone else. */
export async function costumePhotoFor(
  viewer: SessionUser,
  id: string,
  variant: "photo" | "thumb",
): Promise<{ key: string; type: string } | null> {
  if (!isUuid(id)) return null;
  const db = await database();
  const [row] = await db
    .select({
      userId: costumePhotos.userId,
      fileKey: costumePhotos.fileKey,
      thumbKey: costumePhotos.thumbKey,
      fileType: costumePhotos.fileType,
    })
    .from(costumePhotos)
    .where(eq(costumePhotos.id, id));
  if (!row || (row.userId !== viewer.id && !hasStaffRights(viewer))) return null;
  return variant === "thumb" ? { key: row.thumbKey, type: "image/jpeg" } : { key: row.fileKey, type: row.fileType };
}

/* ------------------------------------------------------------------ staff's review */

/**
 * Costume standing from photos and verdicts: per event for one member, or per member for one
 * event (anyone with neither is "missing"). Two queries, by the member's or the event's index.
 */
async function readStandings(by: { userId: string } | { eventId: string }): Promise<Map<string, CostumeStatus>> {
  const db = await database();
  const [photos, reviews] = await Promise.all([
    "userId" in by
      ? db
          .select({ key: costumePhotos.eventId, createdAt: costumePhotos.createdAt })
          .from(costumePhotos)
          .where(eq(costumePhotos.userId, by.userId))
      : db
          .select({ key: costumePhotos.userId, createdAt: costumePhotos.createdAt })
          .from(costumePhotos)
          .where(eq(costumePhotos.eventId, by.eventId)),
    "userId" in by
      ? db
          .select({
            key: costumeReviews.eventId,
            verdict: costumeReviews.verdict,
            reviewedAt: costumeReviews.reviewedAt,
          })
          .from(costumeReviews)
          .where(eq(costumeReviews.userId, by.userId))
      : db
          .select({
            key: costumeReviews.userId,
            verdict: costumeReviews.verdict,
            reviewedAt: costumeReviews.reviewedAt,
          })
          .from(costumeReviews)
          .where(eq(costumeReviews.eventId, by.eventId)),
  ]);
  const photosOf = new Map<string, { createdAt: Date }[]>();
  for (const photo of photos) photosOf.set(photo.key, [...(photosOf.get(photo.key) ?? []), photo]);
  const reviewOf = new Map(reviews.map((review) => [review.key, review]));
  return new Map(
    [...new Set([...photosOf.keys(), ...reviewOf.keys()])].map((key) => [
      key,
      statusOf(photosOf.get(key) ?? [], reviewOf.get(key)),
    ]),
  );
}

/**
 * A member's costume standing for every event, kept until a write to either table is announced:
 * the events page, the busiest signed-in page, shows it on every visit.
 */
const keptMemberCostumes = new ChangeAwareCache<Map<string, CostumeStatus>>({
  name: "members' costume photos",
  tables: ["costume_photos", "costume_reviews"],
  maxAgeMs: 60_000,
  maxEntries: 1_000,
});

/** Where one member's costume stands for each of these events. */
export async function memberCostumeStatuses(
  userId: string,
  eventIds: readonly string[],
): Promise<Map<string, CostumeStatus>> {
  if (eventIds.length === 0) return new Map();
  const standings = await keptMemberCostumes.get(userId, () => readStandings({ userId }));
  return new Map(eventIds.map((id) => [id, standings.get(id) ?? "missing"]));
}

/** Where each member's costume stands for one event, for those who sent photos or had a verdict. */
export function costumeStatusesAt(eventId: string): Promise<Map<string, CostumeStatus>> {
  return readStandings({ eventId });
}
