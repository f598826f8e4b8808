import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import {
  COSTUME_DUE_DAYS_BEFORE,
  COSTUME_REMINDER_DAYS,
  costumeCountdown,
  costumeDueDate,
  costumeStatus,
  daysBefore,
  daysBetween,
  type CostumeReminderDays,
  type CostumeStatus,
} from "~/game/costume";
import { canBuildCharacter, rolesWhere } from "~/game/roles";
import { clubToday, formatEventDate } from "~/lib/dates";
import { siteOrigin } from "~/identity/auth.server";
import { database } from "~/platform/db/client.server";
import {
  costumePhotos,
  costumeReminders,
  costumeReviews,
  eventAttendance,
  events,
  profiles,
} from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import type { TimerJob } from "~/platform/jobs.server";
import { letterBodies } from "~/platform/mail/templates.server";
import { queueEmail, type EmailMessage } from "~/platform/outbox/outbox.server";

/**
 * Costume reminders: 21 and 15 days before an event, an email (through the outbox) to each
 * accepted member registered for it whose costume is not approved. The reminder due is the
 * latest one reached: from 21 days before, the 21-day one; from 15 days before until the
 * event, the 15-day one. So a day missed while the site was down is caught up, and a member
 * registered late gets the reminder due then, never an earlier one as well.
 *
 * Each reminder is a row of costume_reminders (member, event, 21 or 15) with a unique key,
 * written in the same transaction as its email is queued: whatever restarts or however many
 * instances run the job, a member gets each reminder for an event at most once.
 */

/** How often the server looks for reminders to send (they are due by the day, so hourly is plenty). */
export const COSTUME_REMINDER_EVERY_MS = 60 * 60_000;
/** The first look, a little after start-up. */
const FIRST_RUN_MS = 60_000;

const EARLIEST = Math.max(...COSTUME_REMINDER_DAYS);

/** The reminder due for an event `left` days away, if any: the latest one reached. */
export function reminderDue(left: number): CostumeReminderDays | null {
  if (left < 0) return null;
  const reached = COSTUME_REMINDER_DAYS.filter((days) => left <= days);
  return reached.length > 0 ? (Math.min(...reached) as CostumeReminderDays) : null;
}

const STATUS_LINES: Record<Exclude<CostumeStatus, "approved">, string> = {
  missing:
    "We have no costume photo from you yet. Please send one or more photos of your full costume, so staff can help with anything that needs changing.",
  waiting:
    "Your photos are with staff, waiting for their review. You will see their verdict on the same page; there is nothing more to do unless they ask for changes.",
  changes_requested:
    "Staff asked for changes to your costume. Their note is on your costume photos page: please send a new photo once you have made them.",
};

function reminderEmail(input: {
  to: string;
  firstName: string;
  event: { title: string; date: string };
  status: Exclude<CostumeStatus, "approved">;
  today: string;
}): EmailMessage {
  const due = costumeDueDate(input.event.date);
  const countdown = costumeCountdown(due, input.today);
  const link = `${siteOrigin()}/costume`;
  const paragraphs = [
    `Howdy ${input.firstName},`,
    `${input.event.title} is on ${formatEventDate(input.event.date)}. Every player sends a costume photo ${COSTUME_DUE_DAYS_BEFORE / 7} weeks before an event: yours is due on ${formatEventDate(due)} (${countdown}).`,
    STATUS_LINES[input.status],
    "Western clothing of the 1870s: no visible logos or brands, and nothing obviously modern.",
  ];
  return {
    to: input.to,
    subject: `Your costume photo for ${input.event.title} is ${countdown}`,
    ...letterBodies("Your costume photo", paragraphs, {
      label: "Open my costume photos",
      url: link,
      lead: "Costume photos",
    }),
  };
}

/** Members registered for `eventId` (accepted, not suspended) whose costume is not approved; also the managers' message group (features/messages). */
export function notApproved(eventId: string) {
  // Approved: a verdict of approval with no photo sent after it.
  return sql`not exists (
    select 1 from costume_reviews r
    where r.user_id = ${profiles.id} and r.event_id = ${eventId} and r.verdict = 'approved'
      and not exists (select 1 from costume_photos p where p.user_id = r.user_id and p.event_id = r.event_id and p.created_at > r.reviewed_at)
  )`;
}

/**
 * Queues the reminders due on the club's day of `now` (the job passes the clock; tests pass
 * any day). Returns how many were queued. Safe to run at any time, as often as wanted.
 */
export async function sendCostumeReminders(now = new Date()): Promise<number> {
  const today = clubToday(now);
  const db = await database();
  const upcoming = await db
    .select({ id: events.id, title: events.title, date: events.date })
    .from(events)
    .where(and(eq(events.status, "future"), gte(events.date, today), lte(events.date, daysBefore(today, -EARLIEST))));
  let queued = 0;
  for (const event of upcoming) {
    const reminder = reminderDue(daysBetween(today, event.date));
    if (reminder === null) continue;
    queued += await db.transaction(async (tx) => {
      const due = await tx
        .select({ userId: profiles.id, email: profiles.email, firstName: profiles.firstName })
        .from(eventAttendance)
        .innerJoin(profiles, eq(profiles.id, eventAttendance.userId))
        .where(
          and(
            eq(eventAttendance.eventId, event.id),
            inArray(profiles.role, rolesWhere(canBuildCharacter)),
            eq(profiles.banned, false),
            notApproved(event.id),
          ),
        );
      if (due.length === 0) return 0;
      // The unique key picks who has not had this reminder yet; another instance's rows wait for its commit.
      const fresh = await tx
        .insert(costumeReminders)
        .values(due.map((member) => ({ userId: member.userId, eventId: event.id, daysBefore: reminder })))
        .onConflictDoNothing({
          target: [costumeReminders.userId, costumeReminders.eventId, costumeReminders.daysBefore],
        })
        .returning({ userId: costumeReminders.userId });
      if (fresh.length === 0) return 0;
      const ids = fresh.map((row) => row.userId);
      const [photos, reviews] = await Promise.all([
        tx
          .select({ userId: costumePhotos.userId, createdAt: costumePhotos.createdAt })
          .from(costumePhotos)
          .where(and(eq(costumePhotos.eventId, event.id), inArray(costumePhotos.userId, ids))),
        tx
          .select({
            userId: costumeReviews.userId,
            verdict: costumeReviews.verdict,
            reviewedAt: costumeReviews.reviewedAt,
          })
          .from(costumeReviews)
          .where(and(eq(costumeReviews.eventId, event.id), inArray(costumeReviews.userId, ids))),
      ]);
      for (const { userId } of fresh) {
        const member = due.find((m) => m.userId === userId)!;
        const theirs = photos.filter((p) => p.userId === userId);
        const newest = theirs.reduce<Date | null>(
          (latest, p) => (!latest || p.createdAt > latest ? p.createdAt : latest),
          null,
        );
        const status = costumeStatus(theirs.length, newest, reviews.find((r) => r.userId === userId) ?? null);
        await queueEmail(
          tx,
          reminderEmail({
            to: member.email,
            firstName: member.firstName,
            event,
            status: status === "approved" ? "waiting" : status,
            today,
          }),
        );
      }
      return fresh.length;
    });
  }
  if (queued > 0) logger.info({ queued }, "costume reminders queued");
  return queued;
}

/**
 * Looks for reminders to send a minute after start-up and then hourly. `clock` gives the time
 * each run reads (tests set the day).
 */
export function costumeRemindersJob(
  options: { everyMs?: number; firstRunMs?: number; clock?: () => Date } = {},
): TimerJob {
  const { everyMs = COSTUME_REMINDER_EVERY_MS, firstRunMs = FIRST_RUN_MS, clock = () => new Date() } = options;
  return {
    name: "sending costume reminders",
    firstAfterMs: firstRunMs,
    everyMs,
    run: () => sendCostumeReminders(clock()),
  };
}
