import { and, asc, desc, eq, inArray, isNull, max, ne } from "drizzle-orm";
import type { SessionUser } from "~/lib/navigation";
import { isUuid } from "~/lib/ids";
import { audit } from "~/platform/audit.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { eventAttendance, events, profiles, stripeEvents, ticketPurchases } from "~/platform/db/schema";
import {
  STRIPE_EVENTS_TO_LOOK_AT,
  type RefundReason,
  type StripeEventOutcome,
  type TicketStatus,
} from "~/game/tickets";

/** A ticket paid, being refunded or refunded, as the managers' list shows it. */
export type LedgerRow = {
  purchaseId: string;
  name: string;
  status: TicketStatus;
  amountCents: number | null;
  paidAt: Date | null;
  refundedAt: Date | null;
  refundedCents: number | null;
  refundReason: RefundReason | null;
};

/** A member on an event's list without a payment (their ticket refunded at Stripe, or brought in so), for the managers to settle. */
export type UnpaidRegistration = { userId: string; name: string };

export type TicketLedger = {
  priceCents: number | null;
  places: number | null;
  /** Places not yet paid for or held (null: no limit). */
  placesLeft: number | null;
  /** What the paid tickets brought in, refunds left out. */
  takenCents: number;
  rows: LedgerRow[];
  unpaid: UnpaidRegistration[];
};

/**
 * An event's tickets for the managers: who paid, how much and when, refunded or not, the total
 * taken and the places left. Undefined for an event that never sold a ticket on the site.
 */
export async function ticketLedger(
  eventId: string,
  paidAttendees: number,
  now = new Date(),
): Promise<TicketLedger | undefined> {
  if (!isUuid(eventId)) return undefined;
  const db = await database();
  const [event] = await db
    .select({ priceCents: events.ticketPriceCents, places: events.ticketPlaces })
    .from(events)
    .where(eq(events.id, eventId));
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
      refundedCents: ticketPurchases.refundedCents,
      refundReason: ticketPurchases.refundReason,
      holdExpiresAt: ticketPurchases.holdExpiresAt,
    })
    .from(ticketPurchases)
    .leftJoin(profiles, eq(profiles.id, ticketPurchases.userId))
    .where(
      and(
        eq(ticketPurchases.eventId, eventId),
        inArray(ticketPurchases.status, ["held", "paid", "refunding", "refunded"]),
      ),
    )
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
      refundedCents: row.refundedCents,
      refundReason: row.refundReason,
    }));
  const unpaid = await db
    .select({ userId: eventAttendance.userId, firstName: profiles.firstName, lastName: profiles.lastName })
    .from(eventAttendance)
    .innerJoin(profiles, eq(profiles.id, eventAttendance.userId))
    .where(and(eq(eventAttendance.eventId, eventId), ne(eventAttendance.paymentStatus, "paid")))
    .orderBy(asc(profiles.lastName), asc(profiles.firstName));
  return {
    priceCents: event.priceCents,
    places: event.places,
    placesLeft: event.places === null ? null : Math.max(0, event.places - paidAttendees - held),
    takenCents: rows.filter((row) => row.status === "paid").reduce((sum, row) => sum + (row.amountCents ?? 0), 0),
    rows,
    unpaid: unpaid.map((row) => ({ userId: row.userId, name: `${row.firstName} ${row.lastName}` })),
  };
}

/** Each paid ticket's amount and time by member, for the attendance export's payment columns. */
export async function paymentsByMember(
  eventId: string,
): Promise<Map<string, { amountCents: number | null; paidAt: Date | null }>> {
  const db = await database();
  const rows = await db
    .select({
      userId: ticketPurchases.userId,
      amountCents: ticketPurchases.amountCents,
      paidAt: ticketPurchases.paidAt,
    })
    .from(ticketPurchases)
    .where(and(eq(ticketPurchases.eventId, eventId), eq(ticketPurchases.status, "paid")));
  return new Map(
    rows
      .filter((row) => row.userId !== null)
      .map((row) => [row.userId!, { amountCents: row.amountCents, paidAt: row.paidAt }]),
  );
}

/** A notice from Stripe the site could not act on, as the managers' warning lists it. */
export type NoticeToLookAt = {
  id: string;
  type: string;
  outcome: StripeEventOutcome;
  receivedAt: Date;
  sessionId: string | null;
  amountCents: number | null;
  currency: string | null;
};

/** The notices Stripe sent that the site could not act on and no manager has marked dealt with, newest first. */
export async function stripeNoticesToLookAt(): Promise<NoticeToLookAt[]> {
  const db = await database();
  const rows = await db
    .select({
      id: stripeEvents.id,
      type: stripeEvents.type,
      outcome: stripeEvents.outcome,
      receivedAt: stripeEvents.receivedAt,
      payload: stripeEvents.payload,
    })
    .from(stripeEvents)
    .where(and(inArray(stripeEvents.outcome, [...STRIPE_EVENTS_TO_LOOK_AT]), isNull(stripeEvents.dealtWithAt)))
    .orderBy(desc(stripeEvents.receivedAt))
    .limit(50);
  return rows.map((row) => {
    const object = ((row.payload as { object?: Record<string, unknown> }).object ?? {}) as Record<string, unknown>;
    return {
      id: row.id,
      type: row.type,
      outcome: row.outcome,
      receivedAt: row.receivedAt,
      sessionId: typeof object.id === "string" ? object.id : null,
      amountCents: typeof object.amount_total === "number" ? object.amount_total : null,
      currency: typeof object.currency === "string" ? object.currency : null,
    };
  });
}

/** When the last notice signed by Stripe arrived (any kind), so a manager can see the webhook is heard; null when none has. */
export async function lastStripeNoticeAt(): Promise<Date | null> {
  const db = await database();
  const [row] = await db.select({ at: max(stripeEvents.receivedAt) }).from(stripeEvents);
  return row?.at ? new Date(row.at) : null;
}

/** A manager has looked a notice up at Stripe and settled it: it leaves the warning, and the audit log says who. False when there is no such notice to settle. */
export async function markNoticeDealtWith(manager: SessionUser, eventId: string): Promise<boolean> {
  if (!/^evt_[A-Za-z0-9_]{1,250}$/.test(eventId)) return false;
  const db = await database();
  return db.transaction(async (tx: Transaction) => {
    const marked = await tx
      .update(stripeEvents)
      .set({ dealtWithAt: new Date(), dealtWithBy: manager.id })
      .where(
        and(
          eq(stripeEvents.id, eventId),
          inArray(stripeEvents.outcome, [...STRIPE_EVENTS_TO_LOOK_AT]),
          isNull(stripeEvents.dealtWithAt),
        ),
      )
      .returning({ id: stripeEvents.id, type: stripeEvents.type });
    if (marked.length === 0) return false;
    await audit(tx, {
      actorId: manager.id,
      action: "ticket.notice_dealt_with",
      details: { stripeEventId: eventId, type: marked[0]!.type },
    });
    return true;
  });
}

/** A paid ticket as the refund's confirmation names it: the member, the amount and the event. */
export async function refundableTicket(
  purchaseId: string,
): Promise<
  { purchaseId: string; name: string; amountCents: number; eventTitle: string; eventDate: string } | undefined
> {
  if (!isUuid(purchaseId)) return undefined;
  const db = await database();
  const [row] = await db
    .select({
      purchaseId: ticketPurchases.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      amountCents: ticketPurchases.amountCents,
      eventTitle: events.title,
      eventDate: events.date,
    })
    .from(ticketPurchases)
    .innerJoin(events, eq(events.id, ticketPurchases.eventId))
    .leftJoin(profiles, eq(profiles.id, ticketPurchases.userId))
    .where(and(eq(ticketPurchases.id, purchaseId), eq(ticketPurchases.status, "paid")));
  if (!row) return undefined;
  return {
    purchaseId: row.purchaseId,
    name: row.firstName === null ? "A deleted account" : `${row.firstName} ${row.lastName}`,
    amountCents: row.amountCents ?? 0,
    eventTitle: row.eventTitle,
    eventDate: row.eventDate,
  };
}
