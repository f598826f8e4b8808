// The costume review page for cast and managers: the events to look at, each one's costumes in
// the order staff work through them, and staff's verdicts.
import { and, asc, desc, eq, exists, gt, gte, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { passesFilter, type QueueFilter } from "~/features/review/queue-filter.server";
import { costumeEntryId, markAnswered, queueView } from "~/features/review/review-queue.server";
import type { CostumeStatus } from "~/game/costume";
import { clubToday } from "~/lib/dates";
import type { SessionUser } from "~/lib/navigation";
import { EVENTS_PAGE_SIZE, lastPage } from "~/lib/paging";
import { audit } from "~/platform/audit.server";
import { ChangeAwareCache } from "~/platform/db/changes.server";
import { database } from "~/platform/db/client.server";
import { costumePhotos, costumeReviews, eventAttendance, events, profiles } from "~/platform/db/schema";
import { COSTUME_MESSAGES, type CostumeVerdictInput } from "./costume.form";
import { ACCEPTED_ROLES, type CostumePhoto, type CostumeReview, reviewOf, statusOf } from "./costumes.server";

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
          exists(
            db
              .select({ one: sql`1` })
              .from(costumePhotos)
              .where(eq(costumePhotos.eventId, events.id)),
          ),
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
 * One event's costumes: every accepted member registered for it (and anyone else who sent
 * photos for it), those waiting for a verdict first, then changes asked for, no photo yet, and
 * approved; by name within each.
 */
export async function costumeEntries(eventId: string): Promise<CostumeEntry[]> {
  const db = await database();
  const [attendees, photos, reviews] = await Promise.all([
    db
      .select({
        userId: profiles.id,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        characterName: eventAttendance.characterName,
      })
      .from(eventAttendance)
      .innerJoin(profiles, eq(profiles.id, eventAttendance.userId))
      .where(and(eq(eventAttendance.eventId, eventId), inArray(profiles.role, ACCEPTED_ROLES))),
    db
      .select()
      .from(costumePhotos)
      .where(eq(costumePhotos.eventId, eventId))
      .orderBy(asc(costumePhotos.createdAt), asc(costumePhotos.id)),
    db.select().from(costumeReviews).where(eq(costumeReviews.eventId, eventId)),
  ]);
  const people = new Map(attendees.map((a) => [a.userId, a]));
  const unlisted = [...new Set(photos.map((p) => p.userId))].filter((id) => !people.has(id));
  if (unlisted.length > 0) {
    const others = await db
      .select({ userId: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName })
      .from(profiles)
      .where(inArray(profiles.id, unlisted));
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
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      a.lastName.localeCompare(b.lastName) ||
      a.firstName.localeCompare(b.firstName) ||
      a.userId.localeCompare(b.userId),
  );
}

/**
 * How many members' photos wait for a verdict at each of these events (a photo newer than the
 * last verdict, or none given; events with none are absent): one grouped count, kept until a
 * photo or a verdict is written.
 */
const keptWaiting = new ChangeAwareCache<Record<string, number>>({
  name: "costume photos waiting per event",
  tables: ["costume_photos", "costume_reviews"],
  maxAgeMs: 60_000,
  maxEntries: 1_000,
});

export function costumesWaitingByEvent(eventIds: readonly string[]): Promise<Record<string, number>> {
  if (eventIds.length === 0) return Promise.resolve({});
  return keptWaiting.get(eventIds.join(","), async () => {
    const db = await database();
    const rows = await db
      .select({ eventId: costumePhotos.eventId, n: sql<number>`count(distinct ${costumePhotos.userId})::int` })
      .from(costumePhotos)
      .leftJoin(
        costumeReviews,
        and(eq(costumeReviews.eventId, costumePhotos.eventId), eq(costumeReviews.userId, costumePhotos.userId)),
      )
      .where(
        and(
          inArray(costumePhotos.eventId, [...eventIds]),
          or(isNull(costumeReviews.reviewedAt), gt(costumePhotos.createdAt, costumeReviews.reviewedAt)),
        ),
      )
      .groupBy(costumePhotos.eventId);
    return Object.fromEntries(rows.map((row) => [row.eventId, Number(row.n)]));
  });
}

/** What the review page loads: a page of events, how many wait for a verdict at each, and the opened event's costumes. */
export async function loadCostumeReview(
  { event, groups }: { event: string | null; groups: number | null },
  now = new Date(),
) {
  const all = await costumeReviewEvents(now);
  const opened = event && all.some((g) => g.id === event) ? event : null;
  const groupsLastPage = lastPage(all.length, EVENTS_PAGE_SIZE);
  const openedAt = opened ? all.findIndex((g) => g.id === opened) : -1;
  const groupsPage = Math.min(groupsLastPage, groups ?? (openedAt >= 0 ? Math.floor(openedAt / EVENTS_PAGE_SIZE) : 0));
  const shown = all.slice(groupsPage * EVENTS_PAGE_SIZE, (groupsPage + 1) * EVENTS_PAGE_SIZE);
  const [entries, waiting] = await Promise.all([
    opened ? costumeEntries(opened) : Promise.resolve([]),
    costumesWaitingByEvent(shown.map((group) => group.id)),
  ]);
  return { groups: shown, groupsPage, groupsLastPage, open: opened, entries, waiting };
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
    if (photos[0]!.id !== input.latestPhotoId)
      return { ok: false, status: 409, message: COSTUME_MESSAGES.newPhotos } as const;
    const [current] = await tx
      .select({
        verdict: costumeReviews.verdict,
        note: costumeReviews.note,
        reviewedBy: costumeReviews.reviewedBy,
        reviewedAt: costumeReviews.reviewedAt,
      })
      .from(costumeReviews)
      .where(and(eq(costumeReviews.userId, input.userId), eq(costumeReviews.eventId, input.eventId)));
    if ((current?.reviewedAt.toISOString() ?? "") !== input.decidedOver) {
      const sentAgain =
        current && current.reviewedBy === staff.id && current.verdict === input.verdict && current.note === input.note;
      return sentAgain
        ? ({ ok: true } as const)
        : ({ ok: false, status: 409, message: COSTUME_MESSAGES.decidedSince } as const);
    }
    const [event] = await tx
      .select({ title: events.title, date: events.date })
      .from(events)
      .where(eq(events.id, input.eventId));
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
export async function loadCostumeQueue(
  query: { event: string | null; groups: number | null },
  filter: QueueFilter,
  viewerId: string,
) {
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
