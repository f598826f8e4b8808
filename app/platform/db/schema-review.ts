import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
// Relative imports: drizzle-kit loads this file without the app's "~" alias.
import { QUEUE_KINDS, QUEUE_STATUSES, REPLY_KINDS } from "~/game/review-queue";
import { createdAt, oneOf } from "./columns";
import { ownerId, profiles } from "./schema-members";

/**
 * Where an entry on a staff review page stands: keyed by its kind and its id (a PEL's, an
 * order's, a research paper's, a letter's id; for costume photos "<event id>:<member id>").
 * No row means new. `user_id` is the member the entry belongs to, so their rows go with them.
 */
export const reviewQueue = pgTable(
  "review_queue",
  {
    kind: text("kind", { enum: QUEUE_KINDS }).notNull(),
    entryId: text("entry_id").notNull(),
    userId: ownerId(),
    status: text("status", { enum: QUEUE_STATUSES }).notNull(),
    assigneeId: text("assignee_id").references(() => profiles.id, {
      onDelete: "set null",
    }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "review_queue_pk", columns: [t.kind, t.entryId] }),
    index("review_queue_kind_status_idx").on(t.kind, t.status),
    index("review_queue_assignee_id_idx").on(t.assigneeId),
    index("review_queue_user_id_idx").on(t.userId),
    check("review_queue_kind_check", oneOf(t.kind, QUEUE_KINDS)),
    check("review_queue_status_check", oneOf(t.status, QUEUE_STATUSES)),
  ],
);

/** A reply staff wrote to a member's PEL, order or research paper; the member reads it on their profile. */
export const staffReplies = pgTable(
  "staff_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: REPLY_KINDS }).notNull(),
    entryId: text("entry_id").notNull(),
    /** The member whose entry it answers. */
    userId: ownerId(),
    authorId: text("author_id").references(() => profiles.id, {
      onDelete: "set null",
    }),
    body: text("body").notNull(),
    /**
     * The reply form's one-time key: a form sent twice (a reload after posting it without
     * JavaScript) leaves one reply. Null for replies written before forms carried one.
     */
    submissionKey: uuid("submission_key"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("staff_replies_submission_key_unique").on(t.submissionKey),
    index("staff_replies_entry_idx").on(t.kind, t.entryId, t.createdAt),
    index("staff_replies_user_id_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    index("staff_replies_author_id_idx").on(t.authorId),
    check("staff_replies_kind_check", oneOf(t.kind, REPLY_KINDS)),
    check("staff_replies_body_check", sql`length(${t.body}) > 0`),
  ],
);
