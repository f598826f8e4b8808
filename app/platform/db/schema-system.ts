import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, oneOf } from "./columns";
import { profiles } from "./schema-members";

/** Fixed-window counters for rate limits, kept in the database so a restart does not reset them. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_limits_reset_at_idx").on(t.resetAt)],
);

/** CAPTCHA challenges already used, so a solved challenge cannot be replayed before it expires. */
export const usedCaptchas = pgTable(
  "used_captchas",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("used_captchas_expires_at_idx").on(t.expiresAt)],
);

/** "club-message": a copy of a manager's message to members (features/messages), in a lane of its own. */
export const OUTBOX_KINDS = ["email", "discord", "sms", "club-message"] as const;
/** "discarded": a manager chose not to send a failed or waiting message; the row stays as the record. */
export const OUTBOX_STATUSES = ["pending", "sent", "failed", "discarded"] as const;

/**
 * Messages to the outside world (email, chat webhooks), written in the same
 * transaction as the change that caused them and delivered by the worker.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Queue order: rows written in one transaction share created_at, so this orders them. */
    sequence: bigint("sequence", { mode: "number" }).generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: OUTBOX_KINDS }).notNull(),
    /**
     * Messages with one key go out in queue order, and a message waiting for its retry holds
     * back the later ones of its key only: an email's recipient, a chat channel.
     */
    orderKey: text("order_key").notNull(),
    /**
     * Someone is waiting for it on a page (a sign-in code, a reset link): it goes out in a lane
     * of its own, ahead of bulk mail, and queue order holds among the urgent messages of a key.
     */
    urgent: boolean("urgent").notNull().default(false),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the message is next due; while a worker holds it, the end of that worker's lease. */
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The worker holding the lease: the key of the advisory lock its process holds while it
     * runs. A lease whose owner's lock is gone (the process stopped) is taken back at once.
     */
    leasedBy: integer("leased_by"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    check("outbox_kind_check", oneOf(t.kind, OUTBOX_KINDS)),
    check("outbox_status_check", oneOf(t.status, OUTBOX_STATUSES)),
    index("outbox_pending_run_at_idx")
      .on(t.runAt)
      .where(sql`${t.status} = 'pending'`),
    index("outbox_pending_order_key_sequence_idx")
      .on(t.orderKey, t.sequence)
      .where(sql`${t.status} = 'pending'`),
    // The managers' Outbox page lists only what is not sent; sent rows are most of the table.
    index("outbox_unsent_sequence_idx")
      .on(t.sequence)
      .where(sql`${t.status} in ('pending', 'failed')`),
    index("outbox_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** Who did what to whom: role changes, decisions, attendance, emergency-contact views. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    actorId: text("actor_id").references(() => profiles.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    subjectId: text("subject_id").references(() => profiles.id, { onDelete: "set null" }),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("audit_log_actor_id_idx").on(t.actorId),
    index("audit_log_subject_id_idx").on(t.subjectId),
  ],
);

/** Values the site makes for itself on first start, such as the session-signing secret. */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * Every invitation link a manager sent, by the hash of its token (never the token itself), so
 * that sending an invitation again retires the earlier links: only the newest works. The token
 * itself is the auth library's reset token and is checked by it; this table only says which
 * links a newer one replaced (invitation-links.server.ts).
 */
export const invitationLinks = pgTable(
  "invitation_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    replacedAt: timestamp("replaced_at", { withTimezone: true }),
  },
  (t) => [index("invitation_links_member_idx").on(t.memberId)],
);
