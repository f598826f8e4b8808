import { and, asc, count, eq, inArray } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { database } from "~/platform/db/client.server";
import { events, profiles, stripeEvents, ticketPurchases } from "~/platform/db/schema";
import type { TicketStatus } from "~/game/tickets";

/** A ticket paid, being refunded or refunded, as the managers' list shows it. */
export type LedgerRow = { purchaseId: string; name: string; status: TicketStatus; amountCents: number | null; paidAt: Date | null; refundedAt: Date | null };

export type TicketLedger = {
  priceCents: number | null;
  places: number | null;
  /** Places not yet paid for or held (null: no limit). */
  placesLeft: number | null;
  /** What the paid tickets brought in, refunds left out. */
  takenCents: number;
  rows: LedgerRow[];
};

/**
 * An event's tickets for the managers: who paid, how much and when, refunded or not, the total
 * taken and the places left. Undefined for an event that never sold a ticket on the site.
 */
export async function ticketLedger(eventId: string, paidAttendees: number, now = new Date()): Promise<TicketLedger | undefined> {
  if (!isUuid(eventId)) return undefined;
  const db = await database();
  const [event] = await db.select({ priceCents: events.ticketPriceCents, places: events.ticketPlaces }).from(events).where(eq(events.id, eventId));
  if (!event) return undefined;
  const purchases = await db
    .select({
      purchaseId: ticketPurchases.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      status: ticketPurchases.status,
      amountCents: ticketPurchases.amountCents,
      paidAt: ticketPurchases.paidAt,
      refundedAt: ticketPurchases.refundedAt,
      holdExpiresAt: ticketPurchases.holdExpiresAt,
    })
    .from(ticketPurchases)
    .leftJoin(profiles, eq(profiles.id, ticketPurchases.userId))
    .where(and(eq(ticketPurchases.eventId, eventId), inArray(ticketPurchases.status, ["held", "paid", "refunding", "refunded"])))
    .orderBy(asc(ticketPurchases.paidAt), asc(ticketPurchases.createdAt));
  if (event.priceCents === null && purchases.length === 0) return undefined;
  const held = purchases.filter((row) => row.status === "held" && row.holdExpiresAt > now).length;
  const rows = purchases
    .filter((row) => row.status !== "held")
    .map((row) => ({
      purchaseId: row.purchaseId,
      // A deleted account's purchase stays in the club's accounts without a name.
      name: row.firstName === null ? "A deleted account" : `${row.firstName} ${row.lastName}`,
      status: row.status,
      amountCents: row.amountCents,
      paidAt: row.paidAt,
      refundedAt: row.refundedAt,
    }));
  return {
    priceCents: event.priceCents,
    places: event.places,
    placesLeft: event.places === null ? null : Math.max(0, event.places - paidAttendees - held),
    takenCents: rows.filter((row) => row.status === "paid").reduce((sum, row) => sum + (row.amountCents ?? 0), 0),
    rows,
  };
}

/** Each paid ticket's amount and time by member, for the attendance export's payment columns. */
export async function paymentsByMember(eventId: string): Promise<Map<string, { amountCents: number | null; paidAt: Date | null }>> {
  const db = await database();
  const rows = await db
    .select({ userId: ticketPurchases.userId, amountCents: ticketPurchases.amountCents, paidAt: ticketPurchases.paidAt })
    .from(ticketPurchases)
    .where(and(eq(ticketPurchases.eventId, eventId), eq(ticketPurchases.status, "paid")));
  return new Map(rows.filter((row) => row.userId !== null).map((row) => [row.userId!, { amountCents: row.amountCents, paidAt: row.paidAt }]));
}

/** How many events Stripe sent that named no purchase the site knows, for a manager to look at. */
export async function unmatchedStripeEvents(): Promise<number> {
  const db = await database();
  const [row] = await db.select({ n: count() }).from(stripeEvents).where(eq(stripeEvents.outcome, "unmatched"));
  return row?.n ?? 0;
}
