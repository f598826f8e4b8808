import { and, count, eq, gt, inArray, min } from "drizzle-orm";
import type { SessionUser } from "~/lib/navigation";
import { database } from "~/platform/db/client.server";
import { eventAttendance, ticketPurchases } from "~/platform/db/schema";
import { ticketSalesEnabled } from "./stripe.server";
import type { TicketOffer, TicketRefund } from "./tickets.messages";

type OfferedEvent = { id: string; ticketPriceCents: number | null; ticketPlaces: number | null };

/** The member's own purchases for the listed events: an open checkout to go back to, and the last refund. */
async function ownPurchases(userId: string, eventIds: string[], now: Date) {
  const db = await database();
  const rows = await db
    .select({
      eventId: ticketPurchases.eventId,
      status: ticketPurchases.status,
      checkoutUrl: ticketPurchases.checkoutUrl,
      purchaseId: ticketPurchases.id,
      holdExpiresAt: ticketPurchases.holdExpiresAt,
      refundedAt: ticketPurchases.refundedAt,
      refundedCents: ticketPurchases.refundedCents,
    })
    .from(ticketPurchases)
    .where(
      and(
        eq(ticketPurchases.userId, userId),
        inArray(ticketPurchases.eventId, eventIds),
        inArray(ticketPurchases.status, ["held", "refunded"]),
      ),
    );
  const open = new Map<string, { url: string; purchaseId: string; until: string }>();
  const refunds = new Map<string, TicketRefund>();
  for (const row of rows) {
    if (row.status === "held" && row.checkoutUrl && row.holdExpiresAt > now)
      open.set(row.eventId, {
        url: row.checkoutUrl,
        purchaseId: row.purchaseId,
        until: row.holdExpiresAt.toISOString(),
      });
    if (
      row.status === "refunded" &&
      row.refundedAt &&
      (refunds.get(row.eventId)?.at ?? "") < row.refundedAt.toISOString()
    ) {
      refunds.set(row.eventId, { at: row.refundedAt.toISOString(), cents: row.refundedCents });
    }
  }
  return { open, refunds };
}

/**
 * The offer for each listed event that sells tickets on the site (a price, and Stripe's keys
 * set), keyed by event; the others keep their payment link. Places are counted for all the
 * listed events in two queries, and the member's own purchases in a third.
 */
export async function ticketOffers(
  user: SessionUser,
  listed: readonly OfferedEvent[],
  registeredEventIds: ReadonlySet<string>,
  now = new Date(),
): Promise<Record<string, TicketOffer>> {
  // Tickets are for accepted players; the managers register cast and staff as before.
  const onSale =
    ticketSalesEnabled() && user.role === "player" ? listed.filter((event) => event.ticketPriceCents !== null) : [];
  if (onSale.length === 0) return {};
  const limited = onSale.filter((event) => event.ticketPlaces !== null).map((event) => event.id);
  const taken = new Map<string, number>();
  const holds = new Map<string, { n: number; firstEnds: Date | null }>();
  const db = await database();
  const [paid, held, own] = await Promise.all([
    limited.length
      ? db
          .select({ eventId: eventAttendance.eventId, n: count() })
          .from(eventAttendance)
          .where(and(inArray(eventAttendance.eventId, limited), eq(eventAttendance.paymentStatus, "paid")))
          .groupBy(eventAttendance.eventId)
      : [],
    limited.length
      ? db
          .select({ eventId: ticketPurchases.eventId, n: count(), firstEnds: min(ticketPurchases.holdExpiresAt) })
          .from(ticketPurchases)
          .where(
            and(
              inArray(ticketPurchases.eventId, limited),
              eq(ticketPurchases.status, "held"),
              gt(ticketPurchases.holdExpiresAt, now),
            ),
          )
          .groupBy(ticketPurchases.eventId)
      : [],
    ownPurchases(
      user.id,
      onSale.map((event) => event.id),
      now,
    ),
  ]);
  for (const row of paid) taken.set(row.eventId, (taken.get(row.eventId) ?? 0) + row.n);
  for (const row of held) {
    taken.set(row.eventId, (taken.get(row.eventId) ?? 0) + row.n);
    holds.set(row.eventId, { n: row.n, firstEnds: row.firstEnds ? new Date(row.firstEnds) : null });
  }
  return Object.fromEntries(
    onSale.map((event): [string, TicketOffer] => {
      const base = {
        priceCents: event.ticketPriceCents!,
        places: event.ticketPlaces,
        refund: own.refunds.get(event.id) ?? null,
      };
      if (registeredEventIds.has(event.id)) return [event.id, { ...base, state: "have" }];
      const checkout = own.open.get(event.id);
      if (checkout) return [event.id, { ...base, state: "checkout", checkout }];
      const placesLeft =
        event.ticketPlaces === null ? null : Math.max(0, event.ticketPlaces - (taken.get(event.id) ?? 0));
      if (placesLeft === 0) {
        const hold = holds.get(event.id);
        return [
          event.id,
          {
            ...base,
            state: "sold-out",
            heldAtCheckout: hold?.n ?? 0,
            firstHoldEnds: hold?.firstEnds?.toISOString() ?? null,
          },
        ];
      }
      return [event.id, { ...base, state: "buy", placesLeft }];
    }),
  );
}

/**
 * Where the member reads each ticket they paid for on the site, by event: the page Stripe's
 * checkout returned them to, which says what was paid. One query on the member's own purchases.
 */
export async function ticketReceipts(userId: string, eventIds: readonly string[]): Promise<Record<string, string>> {
  if (eventIds.length === 0) return {};
  const db = await database();
  const rows = await db
    .select({ eventId: ticketPurchases.eventId, sessionId: ticketPurchases.checkoutSessionId })
    .from(ticketPurchases)
    .where(
      and(
        eq(ticketPurchases.userId, userId),
        inArray(ticketPurchases.eventId, [...eventIds]),
        eq(ticketPurchases.status, "paid"),
      ),
    );
  return Object.fromEntries(
    rows.flatMap((row) =>
      row.sessionId ? [[row.eventId, `/events/ticket?session_id=${encodeURIComponent(row.sessionId)}`]] : [],
    ),
  );
}
