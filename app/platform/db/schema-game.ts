import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { LETTER_STATUSES } from "~/game/letters";
import { EVENT_STATUSES, PAYMENT_STATUSES } from "~/game/roles";
import { TICKET_PLACES_MAX, TICKET_PRICE_MAX_CENTS, TICKET_PRICE_MIN_CENTS } from "~/game/tickets";
import { createdAt, oneOf } from "./columns";
import { ownerId, profiles, type WrittenAnswer } from "./schema-members";

// The game's tables: events, what members send in for them (post-event letters, merchant
// orders, research) and their attendance, and the letters between characters.

/**
 * A key the form was rendered with: a resubmitted form (a double click, a browser
 * retry) carries the same key, and the unique index turns it into one row.
 */
const submissionKey = () => uuid("submission_key").notNull();

/** The event a submission is about; events are cancelled, never deleted, while rows refer to them. */
const eventId = () =>
  uuid("event_id")
    .notNull()
    .references(() => events.id, { onDelete: "restrict" });

/** A weekend event. Only events whose status is future are listed to members. */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    status: text("status", { enum: EVENT_STATUSES }).notNull().default("future"),
    /** The ticket-purchase link (the old site called this field "stripe": docs/product.md#records). */
    ticketUrl: text("ticket_url"),
    /** The ticket's price in cents (app/game/tickets.ts); tickets are sold on the site only with a price and Stripe's keys set. */
    ticketPriceCents: integer("ticket_price_cents"),
    /** How many tickets may be sold (paid and held together); unset, no limit. */
    ticketPlaces: integer("ticket_places"),
    createdAt: createdAt(),
  },
  (t) => [
    check("events_status_check", oneOf(t.status, EVENT_STATUSES)),
    check("events_ticket_url_https_check", sql`${t.ticketUrl} is null or ${t.ticketUrl} like 'https://%'`),
    check(
      "events_ticket_price_check",
      sql`${t.ticketPriceCents} is null or ${t.ticketPriceCents} between ${sql.raw(String(TICKET_PRICE_MIN_CENTS))} and ${sql.raw(String(TICKET_PRICE_MAX_CENTS))}`,
    ),
    check(
      "events_ticket_places_check",
      sql`${t.ticketPlaces} is null or ${t.ticketPlaces} between 1 and ${sql.raw(String(TICKET_PLACES_MAX))}`,
    ),
    index("events_status_date_idx").on(t.status, t.date),
    index("events_date_idx").on(t.date),
  ],
);

/** A post-event letter. */
export const pels = pgTable(
  "pels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionKey: submissionKey(),
    userId: ownerId(),
    eventId: eventId(),
    characterName: text("character_name").notNull(),
    /** The letter's questions as the member was asked them, each with its answer, in the order asked. */
    answers: jsonb("answers").$type<WrittenAnswer[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("pels_submission_key_unique").on(t.submissionKey),
    index("pels_event_id_created_at_idx").on(t.eventId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("pels_user_id_idx").on(t.userId),
  ],
);

/** What an order's items were called and cost when it was written, by price-list key. */
export type PricedItems = Record<string, { name: string; unit: string; priceCents: number }>;

/** An order of in-game goods for an event; `items` maps a price-list key to a quantity. */
export const merchantOrders = pgTable(
  "merchant_orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionKey: submissionKey(),
    userId: ownerId(),
    eventId: eventId(),
    items: jsonb("items").$type<Record<string, number>>().notNull(),
    /**
     * Each ordered item as the member saw it on the price list (name, unit, price): a later
     * change to the list leaves the order reading as it was written.
     */
    pricedItems: jsonb("priced_items").$type<PricedItems>().notNull(),
    totalPrice: numeric("total_price", { precision: 10, scale: 2 }).notNull(),
    createdAt: createdAt(),
    /** When staff handed the goods over (and took the money); empty while still to hand out. */
    handedOutAt: timestamp("handed_out_at", { withTimezone: true }),
    handedOutBy: text("handed_out_by").references(() => profiles.id, { onDelete: "set null" }),
  },
  (t) => [
    check("merchant_orders_total_positive_check", sql`${t.totalPrice} > 0`),
    uniqueIndex("merchant_orders_submission_key_unique").on(t.submissionKey),
    index("merchant_orders_event_id_created_at_idx").on(
      t.eventId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("merchant_orders_user_id_idx").on(t.userId),
    index("merchant_orders_handed_out_by_idx").on(t.handedOutBy),
  ],
);

/** A member's attendance at an event, with their cabin; once per member per event. */
export const eventAttendance = pgTable(
  "event_attendance",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId(),
    eventId: eventId(),
    /** The cabin's name when the record was made: renaming or retiring a cabin later leaves it as it was. */
    cabin: text("cabin"),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("paid"),
    /** The character's name when the record was made, kept even if the character changes. */
    characterName: text("character_name"),
    createdAt: createdAt(),
    createdBy: text("created_by").references(() => profiles.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("event_attendance_user_event_unique").on(t.userId, t.eventId),
    index("event_attendance_event_id_status_idx").on(t.eventId, t.paymentStatus),
    index("event_attendance_created_by_idx").on(t.createdBy),
    check("event_attendance_payment_status_check", oneOf(t.paymentStatus, PAYMENT_STATUSES)),
  ],
);

/** A research paper with an uploaded file kept by the storage module. */
export const research = pgTable(
  "research",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionKey: submissionKey(),
    userId: ownerId(),
    eventId: eventId(),
    sources: text("sources").notNull(),
    research: text("research").notNull(),
    /** Storage key: research/<user id>/<random id><extension>. Never a public URL. */
    fileKey: text("file_key").notNull(),
    fileName: text("file_name").notNull(),
    fileType: text("file_type").notNull(),
    fileSize: integer("file_size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("research_file_key_unique").on(t.fileKey),
    uniqueIndex("research_submission_key_unique").on(t.submissionKey),
    index("research_event_id_created_at_idx").on(t.eventId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("research_user_id_idx").on(t.userId),
  ],
);

/**
 * An in-game letter to a character. `user_id` is who wrote it (for an answer staff wrote as an
 * NPC, that staff member); the recipient sees only `sender_name`, never who wrote it.
 */
export const letters = pgTable(
  "letters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionKey: submissionKey(),
    userId: ownerId(),
    /** The character the letter is addressed to, as its name was written (a player's character's own spelling). */
    recipient: text("recipient").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
    /** Whose letter box it goes to: the member whose character it is addressed to; null for an NPC (staff answer). */
    recipientId: text("recipient_id").references(() => profiles.id, { onDelete: "set null" }),
    /** How it is signed: the writer's character's name when written, or the NPC staff answered as; null when unsigned. */
    senderName: text("sender_name"),
    /** An answer staff wrote as the NPC named in `sender_name`. */
    fromNpc: boolean("from_npc").notNull().default(false),
    /** The first letter of its thread; null for a first letter. */
    threadId: uuid("thread_id").references((): AnyPgColumn => letters.id, { onDelete: "cascade" }),
    /** See app/game/letters.ts. Rows written before letters were delivered are `filed`. */
    status: text("status", { enum: LETTER_STATUSES }).notNull().default("filed"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** When the recipient first opened it. */
    readAt: timestamp("read_at", { withTimezone: true }),
    /**
     * What a search matches besides the sender: recipient and text, lowercased once when
     * written. A case-insensitive match (ILIKE) lowercases every candidate letter on every
     * search instead, which on the embedded database was half a search's time.
     */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(sql`lower("recipient" || ' ' || "body")`),
  },
  (t) => [
    uniqueIndex("letters_submission_key_unique").on(t.submissionKey),
    index("letters_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("letters_user_id_idx").on(t.userId),
    index("letters_search_text_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    check("letters_status_check", oneOf(t.status, LETTER_STATUSES)),
    // A member's letter box, newest first, and its unread letters (counted on every page).
    index("letters_letter_box_idx")
      .on(t.recipientId, t.deliveredAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'delivered'`),
    index("letters_unread_idx")
      .on(t.recipientId)
      .where(sql`${t.status} = 'delivered' and ${t.readAt} is null`),
    index("letters_thread_id_idx").on(t.threadId),
    // The staff's two queues (to release, to answer) are small parts of all letters.
    index("letters_queue_idx")
      .on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} in ('held', 'to_staff')`),
  ],
);
