import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, oneOf } from "./columns";
import { ownerId } from "./schema-members";

/** "pending": waiting for the worker; "building": claimed by it; "ready": the ZIP is in storage; "failed". */
export const MEMBER_EXPORT_STATUSES = ["pending", "building", "ready", "failed"] as const;

/**
 * A member's request for everything the site holds about them, prepared in the background
 * as one ZIP in storage (exports/<user id>/<random>.zip), downloadable by its owner only
 * until it expires. Rows and files go with the member.
 */
export const memberExports = pgTable(
  "member_exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    status: text("status", { enum: MEMBER_EXPORT_STATUSES }).notNull().default("pending"),
    /** Set once the file is stored. */
    fileKey: text("file_key"),
    fileSize: bigint("file_size", { mode: "number" }),
    createdAt: createdAt(),
    /** When the worker claimed it: a claim older than the worker's lease is taken again. */
    startedAt: timestamp("started_at", { withTimezone: true }),
    readyAt: timestamp("ready_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Why building failed, for operators (no personal data). */
    lastError: text("last_error"),
  },
  (t) => [
    check("member_exports_status_check", oneOf(t.status, MEMBER_EXPORT_STATUSES)),
    index("member_exports_user_id_created_at_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    index("member_exports_unfinished_idx")
      .on(t.createdAt)
      .where(sql`${t.status} in ('pending', 'building')`),
    index("member_exports_expires_at_idx").on(t.expiresAt),
  ],
);
