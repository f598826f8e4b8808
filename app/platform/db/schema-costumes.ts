import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
// Relative imports: drizzle-kit loads this file without the app's "~" alias.
import { COSTUME_REMINDER_DAYS, COSTUME_VERDICTS } from "~/game/costume";
import { createdAt, oneOf } from "./columns";
import { events } from "./schema-game";
import { ownerId, profiles } from "./schema-members";

/** The event a costume row is about; events are cancelled, never deleted, while rows refer to them. */
const eventId = () =>
  uuid("event_id")
    .notNull()
    .references(() => events.id, { onDelete: "restrict" });

/**
 * A costume photo a member sent for an event they are registered for. The stored image is
 * the upload decoded and encoded again (no EXIF or other metadata), with a small thumbnail
 * beside it; both are kept by the storage module under costumes/<user id>/, never public.
 */
export const costumePhotos = pgTable(
  "costume_photos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    eventId: eventId(),
    /** Storage keys: costumes/<user id>/<random id>.<jpg|png> and …-thumb.jpg. Never a public URL. */
    fileKey: text("file_key").notNull(),
    thumbKey: text("thumb_key").notNull(),
    /** image/jpeg or image/png: the type judged by content, kept when encoding again. */
    fileType: text("file_type").notNull(),
    fileSize: integer("file_size").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("costume_photos_file_key_unique").on(t.fileKey),
    uniqueIndex("costume_photos_thumb_key_unique").on(t.thumbKey),
    index("costume_photos_event_id_user_id_idx").on(t.eventId, t.userId, t.createdAt),
    index("costume_photos_user_id_idx").on(t.userId),
  ],
);

/**
 * Staff's latest verdict on a member's costume photos for an event: approved, or changes asked
 * for with a note the member reads. A photo sent after the verdict puts it back for review.
 */
export const costumeReviews = pgTable(
  "costume_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    eventId: eventId(),
    verdict: text("verdict", { enum: COSTUME_VERDICTS }).notNull(),
    note: text("note").notNull().default(""),
    reviewedBy: text("reviewed_by").references(() => profiles.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("costume_reviews_user_event_unique").on(t.userId, t.eventId),
    index("costume_reviews_event_id_idx").on(t.eventId),
    index("costume_reviews_reviewed_by_idx").on(t.reviewedBy),
    check("costume_reviews_verdict_check", oneOf(t.verdict, COSTUME_VERDICTS)),
  ],
);

/**
 * The costume reminders sent: one row per member, event and reminder (21 or 15 days before),
 * written in the same transaction as the email is queued, so a reminder goes at most once
 * whatever restarts or how many instances run the job.
 */
export const costumeReminders = pgTable(
  "costume_reminders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    eventId: eventId(),
    daysBefore: integer("days_before").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("costume_reminders_user_event_days_unique").on(t.userId, t.eventId, t.daysBefore),
    index("costume_reminders_event_id_idx").on(t.eventId),
    check(
      "costume_reminders_days_before_check",
      sql`${t.daysBefore} in (${sql.raw(COSTUME_REMINDER_DAYS.join(", "))})`,
    ),
  ],
);
