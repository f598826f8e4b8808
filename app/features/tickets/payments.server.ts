import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { TICKET_CURRENCY, type RefundReason, type StripeEventOutcome } from "~/game/tickets";
import { audit } from "~/platform/audit.server";
import { config } from "~/platform/config.server";
import type { Transaction } from "~/platform/db/client.server";
import { characters, eventAttendance, events, profiles, ticketPurchases } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { placesTaken } from "./places.server";
import { isDeletedAccount } from "~/features/accounts/account-deletion.server";
import { failedDebitEmail, ticketReceiptEmail } from "./receipt.server";

/** What acting on a Stripe object did: its outcome, the purchase it was about, and a refund still to ask of Stripe. */
export type Acted = { outcome: StripeEventOutcome; purchaseId?: string; refund?: string; registered?: true };

/** The purchase a Checkout Session was made for: by its id, or by the purchase id the site put in its metadata. */
async function purchaseOf(tx: Transaction, session: Stripe.Checkout.Session) {
  const [bySession] = await tx
    .select()
    .from(ticketPurchases)
    .where(eq(ticketPurchases.checkoutSessionId, session.id))
    .for("update");
  if (bySession) return bySession;
  const purchaseId = session.metadata?.purchase_id;
  if (!purchaseId || !/^[0-9a-f-]{36}$/i.test(purchaseId)) return undefined;
  const [byMetadata] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.id, purchaseId)).for("update");
  return byMetadata;
}

function paymentIntentId(session: Stripe.Checkout.Session): string | null {
  const intent = session.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

function eventsPageUrl(): string {
  return new URL("/events", config().appUrl ?? "http://localhost:3000").toString();
}

/** Why a signed session is kept for the managers rather than acted on: it does not agree with the purchase it names. */
function disagreement(
  purchase: typeof ticketPurchases.$inferSelect,
  session: Stripe.Checkout.Session,
): string | undefined {
  if (purchase.checkoutSessionId !== null && purchase.checkoutSessionId !== session.id)
    return "another checkout than the purchase's own";
  if (session.currency?.toLowerCase() !== TICKET_CURRENCY)
    return `a payment in ${session.currency ?? "no currency"}, not ${TICKET_CURRENCY}`;
  if (purchase.priceCents !== null && session.amount_total !== purchase.priceCents)
    return `a payment of ${session.amount_total ?? "no"} cents for a ticket of ${purchase.priceCents}`;
  return undefined;
}

/**
 * A paid Checkout Session: the purchase is paid and its member registered for the event, with a
 * receipt. A session that does not agree with its purchase (amount, currency, checkout) registers
 * nobody and is kept for the managers. A payment the site cannot give a place to is marked for a
 * refund, which the caller asks of Stripe after committing: it arrived after its hold ended for
 * an event that has filled since, for an event cancelled meanwhile, or for a deleted account.
 */
export async function recordPayment(
  tx: Transaction,
  session: Stripe.Checkout.Session,
  now = new Date(),
): Promise<Acted> {
  // A bank debit completes the session unpaid and pays later (async_payment_succeeded).
  if (session.payment_status !== "paid") return { outcome: "ignored" };
  const purchase = await purchaseOf(tx, session);
  if (!purchase) return { outcome: "unmatched" };
  const mismatch = disagreement(purchase, session);
  if (mismatch) {
    logger.warn(
      { purchase: purchase.id, session: session.id, mismatch },
      "Stripe session does not agree with its purchase: kept for a manager, nobody registered",
    );
    return { outcome: "mismatch", purchaseId: purchase.id };
  }
  if (purchase.status === "paid" || purchase.status === "refunded")
    return { outcome: "recorded", purchaseId: purchase.id };
  if (purchase.status === "refunding") return { outcome: "recorded", purchaseId: purchase.id, refund: purchase.id };
  const [member] = purchase.userId
    ? await tx
        .select({
          id: profiles.id,
          email: profiles.email,
          firstName: profiles.firstName,
          characterName: characters.characterName,
        })
        .from(profiles)
        .leftJoin(characters, eq(characters.userId, profiles.id))
        .where(eq(profiles.id, purchase.userId))
    : [];
  const [event] = await tx
    .select({
      id: events.id,
      title: events.title,
      date: events.date,
      status: events.status,
      places: events.ticketPlaces,
    })
    .from(events)
    .where(eq(events.id, purchase.eventId))
    .for("update");
  const paid = {
    checkoutSessionId: session.id,
    amountCents: session.amount_total,
    currency: session.currency,
    paymentIntentId: paymentIntentId(session),
    paidAt: now,
  };
  const refundFor = async (reason: RefundReason): Promise<Acted> => {
    await tx
      .update(ticketPurchases)
      .set({ ...paid, status: "refunding", refundReason: reason })
      .where(eq(ticketPurchases.id, purchase.id));
    return { outcome: "recorded", purchaseId: purchase.id, refund: purchase.id };
  };
  if (!member || isDeletedAccount(member)) return refundFor("account-deleted");
  if (!event || event.status === "cancelled") return refundFor("event-cancelled");
  // Its hold ended (the checkout expired, or its place was given back, or Stripe's notice of that
  // is still on its way): the place it held is no longer counted, and only a free one takes it.
  const holdEnded = purchase.status !== "held" || purchase.holdExpiresAt <= now;
  if (holdEnded && event.places !== null && (await placesTaken(tx, event.id, now)) >= event.places)
    return refundFor("event-full");
  await tx
    .update(ticketPurchases)
    .set({ ...paid, status: "paid" })
    .where(eq(ticketPurchases.id, purchase.id));
  const registered = await tx
    .insert(eventAttendance)
    .values({ eventId: event.id, userId: member.id, paymentStatus: "paid", characterName: member.characterName })
    .onConflictDoNothing({ target: [eventAttendance.userId, eventAttendance.eventId] })
    .returning({ id: eventAttendance.id });
  // Registered already (a manager added them by hand): the existing row is marked paid.
  if (registered.length === 0)
    await tx
      .update(eventAttendance)
      .set({ paymentStatus: "paid" })
      .where(and(eq(eventAttendance.eventId, event.id), eq(eventAttendance.userId, member.id)));
  await audit(tx, {
    actorId: null,
    action: "ticket.paid",
    subjectId: member.id,
    details: {
      eventId: event.id,
      purchaseId: purchase.id,
      amountCents: session.amount_total,
      checkoutSessionId: session.id,
    },
  });
  await queueEmail(
    tx,
    ticketReceiptEmail({
      to: member.email,
      firstName: member.firstName,
      eventTitle: event.title,
      eventDate: event.date,
      amountCents: session.amount_total ?? 0,
      eventsUrl: eventsPageUrl(),
    }),
  );
  return { outcome: "recorded", purchaseId: purchase.id, registered: true };
}

/** A Checkout Session that expired (or was ended when the member came back from it) frees the place it held. */
export async function releaseHold(tx: Transaction, session: Stripe.Checkout.Session): Promise<Acted> {
  const purchase = await purchaseOf(tx, session);
  if (!purchase) return { outcome: "unmatched" };
  if (purchase.status === "held")
    await tx.update(ticketPurchases).set({ status: "released" }).where(eq(ticketPurchases.id, purchase.id));
  return { outcome: "recorded", purchaseId: purchase.id };
}

/** A bank debit that did not go through: the place is free again, and the member is told to pay another way. */
export async function recordFailedDebit(tx: Transaction, session: Stripe.Checkout.Session): Promise<Acted> {
  const purchase = await purchaseOf(tx, session);
  if (!purchase) return { outcome: "unmatched" };
  if (purchase.status !== "held" && purchase.status !== "released")
    return { outcome: "recorded", purchaseId: purchase.id };
  await tx.update(ticketPurchases).set({ status: "failed" }).where(eq(ticketPurchases.id, purchase.id));
  const [member] = purchase.userId
    ? await tx
        .select({ email: profiles.email, firstName: profiles.firstName })
        .from(profiles)
        .where(eq(profiles.id, purchase.userId))
    : [];
  const [event] = await tx
    .select({ title: events.title, date: events.date })
    .from(events)
    .where(eq(events.id, purchase.eventId));
  if (member && event && !isDeletedAccount(member))
    await queueEmail(
      tx,
      failedDebitEmail({
        to: member.email,
        firstName: member.firstName,
        eventTitle: event.title,
        eventDate: event.date,
        eventsUrl: eventsPageUrl(),
      }),
    );
  return { outcome: "recorded", purchaseId: purchase.id };
}
