import { and, count, eq, gt, inArray } from "drizzle-orm";
import type { SessionUser } from "~/lib/navigation";
import { database } from "~/platform/db/client.server";
import { eventAttendance, ticketPurchases } from "~/platform/db/schema";
import { ticketSalesEnabled } from "./stripe.server";
import type { TicketOffer } from "./tickets.messages";


type OfferedEvent = { id: string; ticketPriceCents: number | null; ticketPlaces: number | null };

/**
 * The offer for each listed event that sells tickets on the site (a price, and Stripe's keys
 * set), keyed by event; the others keep their payment link. Places are counted for all the
 * listed events in two queries.
 */
export async function ticketOffers(user: SessionUser, listed: readonly OfferedEvent[], registeredEventIds: ReadonlySet<string>, now = new Date()): Promise<Record<string, TicketOffer>> {
  // Tickets are for accepted players; the managers register cast and staff as before.
  const onSale = ticketSalesEnabled() && user.role === "player" ? listed.filter((event) => event.ticketPriceCents !== null) : [];
  if (onSale.length === 0) return {};
  const limited = onSale.filter((event) => event.ticketPlaces !== null).map((event) => event.id);
  const taken = new Map<string, number>();
  if (limited.length > 0) {
    const db = await database();
    const [paid, held] = await Promise.all([
      db.select({ eventId: eventAttendance.eventId, n: count() }).from(eventAttendance).where(and(inArray(eventAttendance.eventId, limited), eq(eventAttendance.paymentStatus, "paid"))).groupBy(eventAttendance.eventId),
      db
        .select({ eventId: ticketPurchases.eventId, n: count() })
        .from(ticketPurchases)
        .where(and(inArray(ticketPurchases.eventId, limited), eq(ticketPurchases.status, "held"), gt(ticketPurchases.holdExpiresAt, now)))
        .groupBy(ticketPurchases.eventId),
    ]);
    for (const row of [...paid, ...held]) taken.set(row.eventId, (taken.get(row.eventId) ?? 0) + row.n);
  }
  return Object.fromEntries(
    onSale.map((event) => {
      const state = registeredEventIds.has(event.id) ? "have" : event.ticketPlaces !== null && (taken.get(event.id) ?? 0) >= event.ticketPlaces ? "sold-out" : "buy";
      return [event.id, { priceCents: event.ticketPriceCents!, state }];
    }),
  );
}
