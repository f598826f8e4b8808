import { and, asc, count, desc, eq, exists, gte, inArray, ne, or, sql } from "drizzle-orm";
import { COSTUME_MESSAGES, type CostumeVerdictInput } from "./costume.form";
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
import { EVENTS_PAGE_SIZE, lastPage } from "~/lib/paging";
import { hasStaffRights } from "~/features/two-factor/assurance.server";
import { audit } from "~/platform/audit.server";
import { passesFilter, type QueueFilter } from "~/features/review/queue-filter.server";
import { costumeEntryId, markAnswered, queueView, reopenAnswered } from "~/features/review/review-queue.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { costumePhotos, costumeReviews, eventAttendance, events, profiles } from "~/platform/db/schema";
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
const ACCEPTED_ROLES = rolesWhere(canBuildCharacter);

export type CostumePhoto = { id: string; createdAt: string; width: number; height: number };
export type CostumeReview = { verdict: CostumeVerdict; note: string; reviewedAt: string };

function reviewOf(row: { verdict: CostumeVerdict; note: string; reviewedAt: Date } | undefined): CostumeReview | null {
  return row ? { verdict: row.verdict, note: row.note, reviewedAt: row.reviewedAt.toISOString() } : null;
}

function statusOf(photos: { createdAt: Date }[], review: { verdict: CostumeVerdict; reviewedAt: Date } | undefined): CostumeStatus {
  const newest = photos.reduce<Date | null>((latest, p) => (!latest || p.createdAt > latest ? p.createdAt : latest), null);
  return costumeStatus(photos.length, newest, review ?? null);
}

/** Upcoming (future, not yet past) events the member is registered for, soonest first. */
async function registeredUpcomingEvents(userId: string, today: string, eventId?: string) {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(eventAttendance)
    .innerJoin(events, eq(events.id, eventAttendance.eventId))
    .where(and(eq(eventAttendance.userId, userId), eq(events.status, "future"), gte(events.date, today), eventId ? eq(events.id, eventId) : undefined))
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
    db.select().from(costumeReviews).where(and(eq(costumeReviews.userId, userId), inArray(costumeReviews.eventId, ids))),
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
export async function addCostumePhoto(user: SessionUser, { values, file }: CostumeUpload, now = new Date()): Promise<UploadOutcome> {
  const eventId = values.eventId;
  if (!isUuid(eventId) || (await registeredUpcomingEvents(user.id, clubToday(now), eventId)).length === 0) {
    return { ok: false, status: 400, message: COSTUME_MESSAGES.notRegistered };
  }
  if (!file) return { ok: false, status: 400, message: COSTUME_MESSAGES.chooseFile };
  // Loaded with the first upload: about 10 MB an idle server need not hold.
  const sniffed = await (await import("file-type")).fileTypeFromFile(file.path);
  const type = sniffed?.mime;
  if (type !== "image/jpeg" && type !== "image/png") return { ok: false, status: 400, message: COSTUME_MESSAGES.fileType };

  const db = await database();
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(costumePhotos)
    .where(and(eq(costumePhotos.userId, user.id), eq(costumePhotos.eventId, eventId)));
  if (n >= COSTUME_PHOTOS_PER_EVENT) return { ok: false, status: 400, message: COSTUME_MESSAGES.tooMany };

  // libvips reads the photo from disk: it is never copied whole into this process's memory.
  const outcome = await processPhoto(file.path, type);
  if (!outcome.ok) return { ok: false, status: 400, message: outcome.reason === "too-many-pixels" ? COSTUME_MESSAGES.tooManyPixels : COSTUME_MESSAGES.unreadable };
  const { photo, thumb, width, height } = outcome.processed;

  const { fileKey, thumbKey } = costumeKeys(user.id, PHOTO_TYPES[type]);
  try {
    await saveFile(fileKey, photo, { contentType: type });
    await saveFile(thumbKey, thumb, { contentType: "image/jpeg" });
    await db.transaction(async (tx) => {
      await tx.insert(costumePhotos).values({ userId: user.id, eventId, fileKey, thumbKey, fileType: type, fileSize: photo.byteLength, width, height });
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
export async function costumePhotoFor(viewer: SessionUser, id: string, variant: "photo" | "thumb"): Promise<{ key: string; type: string } | null> {
  if (!isUuid(id)) return null;
  const db = await database();
  const [row] = await db
    .select({ userId: costumePhotos.userId, fileKey: costumePhotos.fileKey, thumbKey: costumePhotos.thumbKey, fileType: costumePhotos.fileType })
    .from(costumePhotos)
    .where(eq(costumePhotos.id, id));
  if (!row || (row.userId !== viewer.id && !hasStaffRights(viewer))) return null;
  return variant === "thumb" ? { key: row.thumbKey, type: "image/jpeg" } : { key: row.fileKey, type: row.fileType };
}

/* ------------------------------------------------------------------ staff's review */

export type ReviewEvent = { id: string; title: string; date: string };

/**
 * The review page's events, latest first, ten at a time: every upcoming event (its registered
 * members are expected to send photos), and any other event that has photos.
 */
export async function costumeReviewEvents(now = new Date()): Promise<ReviewEvent[]> {
  const db = await database();
  return db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(events)
    .where(
      and(
        ne(events.status, "cancelled"),
        or(
          and(eq(events.status, "future"), gte(events.date, clubToday(now))),
          exists(db.select({ one: sql`1` }).from(costumePhotos).where(eq(costumePhotos.eventId, events.id))),
        ),
      ),
    )
    .orderBy(desc(events.date), asc(events.title));
}

export type CostumeEntry = {
  userId: string;
  firstName: string;
  lastName: string;
  characterName: string | null;
  status: CostumeStatus;
  photos: CostumePhoto[];
  review: CostumeReview | null;
};

const STATUS_ORDER: Record<CostumeStatus, number> = { waiting: 0, changes_requested: 1, missing: 2, approved: 3 };

/**
 * Costume standing from photos and verdicts: per event for one member, or per member for one
 * event (anyone with neither is "missing"). Two queries, by the member's or the event's index.
 */
async function readStandings(by: { userId: string } | { eventId: string }): Promise<Map<string, CostumeStatus>> {
  const db = await database();
  const [photos, reviews] = await Promise.all([
    "userId" in by
      ? db.select({ key: costumePhotos.eventId, createdAt: costumePhotos.createdAt }).from(costumePhotos).where(eq(costumePhotos.userId, by.userId))
      : db.select({ key: costumePhotos.userId, createdAt: costumePhotos.createdAt }).from(costumePhotos).where(eq(costumePhotos.eventId, by.eventId)),
    "userId" in by
      ? db.select({ key: costumeReviews.eventId, verdict: costumeReviews.verdict, reviewedAt: costumeReviews.reviewedAt }).from(costumeReviews).where(eq(costumeReviews.userId, by.userId))
      : db.select({ key: costumeReviews.userId, verdict: costumeReviews.verdict, reviewedAt: costumeReviews.reviewedAt }).from(costumeReviews).where(eq(costumeReviews.eventId, by.eventId)),
  ]);
  const photosOf = new Map<string, { createdAt: Date }[]>();
  for (const photo of photos) photosOf.set(photo.key, [...(photosOf.get(photo.key) ?? []), photo]);
  const reviewOf = new Map(reviews.map((review) => [review.key, review]));
  return new Map([...new Set([...photosOf.keys(), ...reviewOf.keys()])].map((key) => [key, statusOf(photosOf.get(key) ?? [], reviewOf.get(key))]));
}

/**
 * A member's costume standing for every event, kept until a write to either table is announced:
 * the events page, the busiest signed-in page, shows it on every visit.
 */
const keptMemberCostumes = new ChangeAwareCache<Map<string, CostumeStatus>>({ name: "members' costume photos", tables: ["costume_photos", "costume_reviews"], maxAgeMs: 60_000, maxEntries: 1_000 });

/** Where one member's costume stands for each of these events. */
export async function memberCostumeStatuses(userId: string, eventIds: readonly string[]): Promise<Map<string, CostumeStatus>> {
  if (eventIds.length === 0) return new Map();
  const standings = await keptMemberCostumes.get(userId, () => readStandings({ userId }));
  return new Map(eventIds.map((id) => [id, standings.get(id) ?? "missing"]));
}

/** Where each member's costume stands for one event, for those who sent photos or had a verdict. */
export function costumeStatusesAt(eventId: string): Promise<Map<string, CostumeStatus>> {
  return readStandings({ eventId });
}

/**
 * One event's costumes: every accepted member registered for it (and anyone else who sent
 * photos for it), those waiting for a verdict first, then changes asked for, no photo yet, and
 * approved; by name within each.
 */
export async function costumeEntries(eventId: string): Promise<CostumeEntry[]> {
  const db = await database();
  const [attendees, photos, reviews] = await Promise.all([
    db
      .select({ userId: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName, characterName: eventAttendance.characterName })
      .from(eventAttendance)
      .innerJoin(profiles, eq(profiles.id, eventAttendance.userId))
      .where(and(eq(eventAttendance.eventId, eventId), inArray(profiles.role, ACCEPTED_ROLES))),
    db.select().from(costumePhotos).where(eq(costumePhotos.eventId, eventId)).orderBy(asc(costumePhotos.createdAt), asc(costumePhotos.id)),
    db.select().from(costumeReviews).where(eq(costumeReviews.eventId, eventId)),
  ]);
  const people = new Map(attendees.map((a) => [a.userId, a]));
  const unlisted = [...new Set(photos.map((p) => p.userId))].filter((id) => !people.has(id));
  if (unlisted.length > 0) {
    const others = await db.select({ userId: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName }).from(profiles).where(inArray(profiles.id, unlisted));
    for (const other of others) people.set(other.userId, { ...other, characterName: null });
  }
  const entries = [...people.values()].map((person) => {
    const theirs = photos.filter((p) => p.userId === person.userId);
    const review = reviews.find((r) => r.userId === person.userId);
    return {
      ...person,
      status: statusOf(theirs, review),
      photos: theirs.map((p) => ({ id: p.id, createdAt: p.createdAt.toISOString(), width: p.width, height: p.height })),
      review: reviewOf(review),
    };
  });
  return entries.sort(
    (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName) || a.userId.localeCompare(b.userId),
  );
}

/** What the review page loads: a page of events and the opened event's costumes. */
export async function loadCostumeReview({ event, groups }: { event: string | null; groups: number | null }, now = new Date()) {
  const all = await costumeReviewEvents(now);
  const opened = event && all.some((g) => g.id === event) ? event : null;
  const entries = opened ? await costumeEntries(opened) : [];
  const groupsLastPage = lastPage(all.length, EVENTS_PAGE_SIZE);
  const openedAt = opened ? all.findIndex((g) => g.id === opened) : -1;
  const groupsPage = Math.min(groupsLastPage, groups ?? (openedAt >= 0 ? Math.floor(openedAt / EVENTS_PAGE_SIZE) : 0));
  const shown = all.slice(groupsPage * EVENTS_PAGE_SIZE, (groupsPage + 1) * EVENTS_PAGE_SIZE);
  return { groups: shown, groupsPage, groupsLastPage, open: opened, entries };
}

export type VerdictOutcome = { ok: true } | { ok: false; status: number; message: string };

/**
 * Records staff's verdict on a member's photos for an event, and audits it, in one transaction.
 * Refused when the member has no photo for it, sent one staff had not seen (`latestPhotoId`), or
 * someone gave a verdict after the one staff saw (`decidedOver`), so a page kept open, or a
 * form sent again by a reload, never overturns a colleague's later verdict. The same verdict
 * sent again by its author changes nothing and is not audited twice.
 */
export async function recordCostumeVerdict(staff: SessionUser, input: CostumeVerdictInput): Promise<VerdictOutcome> {
  const db = await database();
  return db.transaction(async (tx) => {
    // The member's row serialises verdicts on them, so two staff members deciding at once leave one answer.
    await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, input.userId)).for("update");
    const photos = await tx
      .select({ id: costumePhotos.id })
      .from(costumePhotos)
      .where(and(eq(costumePhotos.userId, input.userId), eq(costumePhotos.eventId, input.eventId)))
      .orderBy(desc(costumePhotos.createdAt), desc(costumePhotos.id));
    if (photos.length === 0) return { ok: false, status: 409, message: COSTUME_MESSAGES.noPhotos } as const;
    if (photos[0]!.id !== input.latestPhotoId) return { ok: false, status: 409, message: COSTUME_MESSAGES.newPhotos } as const;
    const [current] = await tx
      .select({ verdict: costumeReviews.verdict, note: costumeReviews.note, reviewedBy: costumeReviews.reviewedBy, reviewedAt: costumeReviews.reviewedAt })
      .from(costumeReviews)
      .where(and(eq(costumeReviews.userId, input.userId), eq(costumeReviews.eventId, input.eventId)));
    if ((current?.reviewedAt.toISOString() ?? "") !== input.decidedOver) {
      const sentAgain = current && current.reviewedBy === staff.id && current.verdict === input.verdict && current.note === input.note;
      return sentAgain ? ({ ok: true } as const) : ({ ok: false, status: 409, message: COSTUME_MESSAGES.decidedSince } as const);
    }
    const [event] = await tx.select({ title: events.title, date: events.date }).from(events).where(eq(events.id, input.eventId));
    const decided = { verdict: input.verdict, note: input.note, reviewedBy: staff.id, reviewedAt: sql`now()` };
    await tx
      .insert(costumeReviews)
      .values({ userId: input.userId, eventId: input.eventId, ...decided })
      .onConflictDoUpdate({ target: [costumeReviews.userId, costumeReviews.eventId], set: decided });
    await audit(tx, {
      actorId: staff.id,
      action: input.verdict === "approved" ? "costume.approve" : "costume.request_changes",
      subjectId: input.userId,
      details: { event: event?.title ?? null, eventDate: event?.date ?? null, photos: photos.length },
    });
    await markAnswered(tx, "costume", costumeEntryId(input.eventId, input.userId), input.userId);
    return { ok: true } as const;
  });
}

/** The costume review page with its queue: the opened event's entries that pass the filter, and where each stands. */
export async function loadCostumeQueue(query: { event: string | null; groups: number | null }, filter: QueueFilter, viewerId: string) {
  const review = await loadCostumeReview(query);
  const open = review.open;
  const idOf = (entry: CostumeEntry) => (open ? costumeEntryId(open, entry.userId) : "");
  const queue = await queueView("costume", open ? review.entries.map(idOf) : [], filter);
  const entries = review.entries.filter((entry) => {
    const state = queue.states[idOf(entry)];
    return !state || passesFilter(state, filter, viewerId);
  });
  return { ...review, entries, ...queue, viewerId };
}
