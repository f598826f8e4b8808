import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { REFUND_REASONS, STRIPE_EVENT_OUTCOMES, TICKET_STATUSES } from "~/game/tickets";
import { createdAt, oneOf } from "./columns";
import { events } from "./schema-game";
import { profiles } from "./schema-members";

/**
 * A ticket bought (or being bought) through Stripe Checkout. A held purchase keeps a place
 * while the member is at Stripe; a paid one registered the member (event_attendance). Rows are
 * kept after a refund, and the member's id is cleared if their account is deleted, for the
 * club's accounts.
 */
export const ticketPurchases = pgTable(
  "ticket_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => profiles.id, { onDelete: "set null" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "restrict" }),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("held"),
    /** Stripe's Checkout Session, and the page at Stripe it sends the member to. */
    checkoutSessionId: text("checkout_session_id"),
    checkoutUrl: text("checkout_url"),
    /** The price the site asked when the checkout was made: a payment of another amount registers nobody. */
    priceCents: integer("price_cents"),
    /** What the member paid, as Stripe reports it. */
    amountCents: integer("amount_cents"),
    currency: text("currency"),
    paymentIntentId: text("payment_intent_id"),
    /** Until when the place is held (the Checkout Session's expiry). */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** Why it was refunded (set when the refund is asked for or recorded), and how much Stripe gave back. */
    refundReason: text("refund_reason", { enum: REFUND_REASONS }),
    refundedCents: integer("refunded_cents"),
    /** The manager who refunded it on the site. */
    refundedBy: text("refunded_by").references(() => profiles.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ticket_purchases_checkout_session_unique").on(t.checkoutSessionId),
    // One live purchase per member per event: a double press, or two tabs, cannot buy twice.
    uniqueIndex("ticket_purchases_live_unique")
      .on(t.userId, t.eventId)
      .where(sql`${t.status} in ('held', 'paid')`),
    index("ticket_purchases_event_id_status_idx").on(t.eventId, t.status),
    check("ticket_purchases_status_check", oneOf(t.status, TICKET_STATUSES)),
    // A check passes on null: a purchase not refunded has no reason.
    check("ticket_purchases_refund_reason_check", oneOf(t.refundReason, REFUND_REASONS)),
  ],
);

/**
 * Every event Stripe sent the webhook, once (Stripe's event id is the key, so a delivery
 * repeated any number of times is acted on once), with what became of it. One that names no
 * purchase the site knows is kept for a manager to look at, never dropped.
 */
export const stripeEvents = pgTable(
  "stripe_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    outcome: text("outcome", { enum: STRIPE_EVENT_OUTCOMES }).notNull(),
    /** The purchase it was about, when the site knows it. */
    purchaseId: uuid("purchase_id").references(() => ticketPurchases.id, { onDelete: "set null" }),
    /** The event as Stripe sent it, for a manager to look at when it matched nothing. */
    payload: jsonb("payload").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a manager marked one kept for them as dealt with, and who. */
    dealtWithAt: timestamp("dealt_with_at", { withTimezone: true }),
    dealtWithBy: text("dealt_with_by").references(() => profiles.id, { onDelete: "set null" }),
  },
  (t) => [
    index("stripe_events_outcome_idx").on(t.outcome, t.receivedAt),
    check("stripe_events_outcome_check", oneOf(t.outcome, STRIPE_EVENT_OUTCOMES)),
  ],
);
