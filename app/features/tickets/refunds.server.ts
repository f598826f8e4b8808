import { and, eq, inArray } from "drizzle-orm";
import type Stripe from "stripe";
import type { RefundReason } from "~/game/tickets";
import type { SessionUser } from "~/lib/navigation";
import { isUuid } from "~/lib/ids";
import { audit } from "~/platform/audit.server";
import { config } from "~/platform/config.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { eventAttendance, events, profiles, ticketPurchases } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { queueEmail } from "~/platform/outbox/outbox.server";
import { isDeletedAccount } from "~/features/accounts/account-deletion.server";
import { memberRefundEmail, paymentRefundedForManagersEmail } from "./receipt.server";
import { stripeClient } from "./stripe.server";

/** The one key every request to refund a purchase carries: however many presses, retries and jobs ask, Stripe refunds it once. */
export function refundIdempotencyKey(purchaseId: string): string {
  return `hopewell-refund-${purchaseId}`;
}

function eventsPageUrl(): string {
  return new URL("/events", config().appUrl ?? "http://localhost:3000").toString();
}

function attendancePageUrl(eventId: string): string {
  return new URL(`/attendance?event=${eventId}`, config().appUrl ?? "http://localhost:3000").toString();
}

/**
 * Records a purchase as refunded, once: only the first caller to move it from paid or refunding
 * to refunded writes the audit row and the emails, so a double press, the webhook and the
 * reconciliation job meeting on one refund leave one of each. What happens to the member's place
 * follows why: a manager's refund takes them off the event's list; a refund made in Stripe's
 * dashboard leaves them on it, marked unpaid, for the managers to decide (the attendance page
 * offers both); the others never registered anyone.
 */
export async function finishRefund(
  tx: Transaction,
  purchaseId: string,
  refund: { refundedCents: number | null; reason?: RefundReason },
  now = new Date(),
): Promise<boolean> {
  const [purchase] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.id, purchaseId)).for("update");
  if (!purchase || (purchase.status !== "paid" && purchase.status !== "refunding")) return false;
  const reason: RefundReason =
    purchase.status === "refunding" && purchase.refundReason ? purchase.refundReason : (refund.reason ?? "stripe");
  const refundedCents = refund.refundedCents ?? purchase.amountCents;
  await tx
    .update(ticketPurchases)
    .set({ status: "refunded", refundedAt: now, refundReason: reason, refundedCents })
    .where(eq(ticketPurchases.id, purchase.id));
  if (purchase.userId) {
    const onList = and(eq(eventAttendance.eventId, purchase.eventId), eq(eventAttendance.userId, purchase.userId));
    if (reason === "manager") await tx.delete(eventAttendance).where(onList);
    else if (reason === "stripe") await tx.update(eventAttendance).set({ paymentStatus: "unpaid" }).where(onList);
  }
  await audit(tx, {
    actorId: reason === "manager" ? purchase.refundedBy : null,
    action: "ticket.refunded",
    subjectId: purchase.userId,
    details: { eventId: purchase.eventId, purchaseId: purchase.id, amountRefundedCents: refundedCents, reason },
  });
  const [event] = await tx
    .select({ id: events.id, title: events.title, date: events.date })
    .from(events)
    .where(eq(events.id, purchase.eventId));
  const [member] = purchase.userId
    ? await tx
        .select({ email: profiles.email, firstName: profiles.firstName, lastName: profiles.lastName })
        .from(profiles)
        .where(eq(profiles.id, purchase.userId))
    : [];
  const amountCents = refundedCents ?? 0;
  if (member && event && !isDeletedAccount(member)) {
    await queueEmail(
      tx,
      memberRefundEmail({
        to: member.email,
        firstName: member.firstName,
        eventTitle: event.title,
        eventDate: event.date,
        amountCents,
        reason,
        eventsUrl: eventsPageUrl(),
      }),
    );
  }
  // The managers hear of what none of them did on the site: a refund at Stripe, or a payment the site had to send back.
  if (event && reason !== "manager" && reason !== "event-full") {
    const managers = await tx
      .select({ email: profiles.email })
      .from(profiles)
      .where(and(eq(profiles.role, "manager"), eq(profiles.banned, false)));
    const memberName = member && !isDeletedAccount(member) ? `${member.firstName} ${member.lastName}` : null;
    for (const manager of managers) {
      await queueEmail(
        tx,
        paymentRefundedForManagersEmail({
          to: manager.email,
          eventTitle: event.title,
          eventDate: event.date,
          amountCents,
          reason,
          memberName,
          attendanceUrl: attendancePageUrl(event.id),
        }),
      );
    }
  }
  return true;
}

/** What asking Stripe for a refund came to. */
type StripeRefundAnswer =
  | { outcome: "refunded"; refundedCents: number | null }
  | { outcome: "unreachable" }
  | { outcome: "refused"; message: string };

/** Errors that say Stripe may answer otherwise later: the request is asked again. */
const TRANSIENT_STRIPE_ERRORS = new Set([
  "StripeConnectionError",
  "StripeAPIError",
  "StripeRateLimitError",
  "StripeIdempotencyError",
]);

async function askStripeToRefund(purchase: {
  id: string;
  paymentIntentId: string | null;
  refundReason: RefundReason | null;
}): Promise<StripeRefundAnswer> {
  const stripe = await stripeClient();
  if (!stripe || !purchase.paymentIntentId) return { outcome: "unreachable" };
  try {
    const refund = await stripe.refunds.create(
      {
        payment_intent: purchase.paymentIntentId,
        metadata: { purchase_id: purchase.id, reason: purchase.refundReason ?? "manager" },
      },
      { idempotencyKey: refundIdempotencyKey(purchase.id) },
    );
    return { outcome: "refunded", refundedCents: refund.amount ?? null };
  } catch (error) {
    const stripeError = error as Partial<Stripe.errors.StripeError>;
    // Refunded already, in Stripe's dashboard or by an earlier request: the same end.
    if (stripeError.code === "charge_already_refunded") return { outcome: "refunded", refundedCents: null };
    if (stripeError.type && !TRANSIENT_STRIPE_ERRORS.has(stripeError.type))
      return { outcome: "refused", message: stripeError.message ?? "Stripe refused the refund." };
    logger.error(
      { err: error, purchase: purchase.id },
      "Stripe refund could not be made; the reconciliation job asks again",
    );
    return { outcome: "unreachable" };
  }
}

/**
 * Asks Stripe for a refund the site owes (status refunding), then records it and tells the
 * member why. The idempotency key makes a retry (by the reconciliation job, after a failure
 * here) the same refund. False when the refund is still owed.
 */
export async function settleRefund(purchaseId: string, now = new Date()): Promise<boolean> {
  const db = await database();
  const [purchase] = await db
    .select()
    .from(ticketPurchases)
    .where(and(eq(ticketPurchases.id, purchaseId), eq(ticketPurchases.status, "refunding")));
  if (!purchase) return false;
  const answer = await askStripeToRefund(purchase);
  if (answer.outcome === "refused")
    logger.error(
      { purchase: purchase.id, reason: answer.message },
      "Stripe refused a refund the site owes; the reconciliation job asks again",
    );
  if (answer.outcome !== "refunded") return false;
  return db.transaction((tx: Transaction) =>
    finishRefund(tx, purchase.id, { refundedCents: answer.refundedCents }, now),
  );
}

export type ManagerRefund =
  | { outcome: "refunded"; name: string; amountCents: number; eventTitle: string }
  | { outcome: "already" }
  | { outcome: "not-found" }
  | { outcome: "pending" }
  | { outcome: "refused"; message: string };

/**
 * A manager refunds a paid ticket from the attendance page. The purchase is marked refunding
 * first, so a crash or an unanswered request is finished by the reconciliation job; Stripe's
 * refund carries the purchase's idempotency key, so a double press refunds once; a refund made
 * meanwhile in Stripe's dashboard ends the same way. Stripe refusing (a balance too low, say)
 * puts the ticket back as paid and says why.
 */
export async function refundFromSite(
  manager: SessionUser,
  purchaseId: string,
  now = new Date(),
): Promise<ManagerRefund> {
  if (!isUuid(purchaseId)) return { outcome: "not-found" };
  const db = await database();
  const started = await db.transaction(async (tx: Transaction) => {
    const [purchase] = await tx.select().from(ticketPurchases).where(eq(ticketPurchases.id, purchaseId)).for("update");
    if (!purchase) return undefined;
    if (purchase.status === "paid") {
      const [marked] = await tx
        .update(ticketPurchases)
        .set({ status: "refunding", refundReason: "manager", refundedBy: manager.id })
        .where(eq(ticketPurchases.id, purchase.id))
        .returning();
      return marked;
    }
    return purchase;
  });
  if (!started) return { outcome: "not-found" };
  if (started.status === "refunded") return { outcome: "already" };
  if (started.status !== "refunding") return { outcome: "not-found" };
  const answer = await askStripeToRefund(started);
  if (answer.outcome === "unreachable") return { outcome: "pending" };
  if (answer.outcome === "refused") {
    await db
      .update(ticketPurchases)
      .set({ status: "paid", refundReason: null, refundedBy: null })
      .where(
        and(
          eq(ticketPurchases.id, started.id),
          eq(ticketPurchases.status, "refunding"),
          eq(ticketPurchases.refundReason, "manager"),
        ),
      );
    return { outcome: "refused", message: answer.message };
  }
  await db.transaction((tx: Transaction) => finishRefund(tx, started.id, { refundedCents: answer.refundedCents }, now));
  const [shown] = await db
    .select({
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      title: events.title,
      refundedCents: ticketPurchases.refundedCents,
    })
    .from(ticketPurchases)
    .innerJoin(events, eq(events.id, ticketPurchases.eventId))
    .leftJoin(profiles, eq(profiles.id, ticketPurchases.userId))
    .where(eq(ticketPurchases.id, started.id));
  return {
    outcome: "refunded",
    name: shown?.firstName ? `${shown.firstName} ${shown.lastName}` : "A deleted account",
    amountCents: shown?.refundedCents ?? 0,
    eventTitle: shown?.title ?? "",
  };
}

/**
 * A refund made at Stripe (charge.refunded): a paid ticket is recorded as refunded there; one the
 * site was refunding itself is finished with its own reason. A partial refund (a discount given
 * in the dashboard) leaves the ticket paid: the member still holds their place.
 */
export async function recordRefund(
  tx: Transaction,
  charge: Stripe.Charge,
  now = new Date(),
): Promise<{ outcome: "recorded" | "unmatched" | "ignored"; purchaseId?: string }> {
  const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  if (!intent) return { outcome: "unmatched" };
  const [purchase] = await tx
    .select({ id: ticketPurchases.id })
    .from(ticketPurchases)
    .where(eq(ticketPurchases.paymentIntentId, intent));
  if (!purchase) return { outcome: "unmatched" };
  if (charge.refunded === false) return { outcome: "ignored", purchaseId: purchase.id };
  await finishRefund(tx, purchase.id, { refundedCents: charge.amount_refunded, reason: "stripe" }, now);
  return { outcome: "recorded", purchaseId: purchase.id };
}

/** Purchases whose refund the site still owes, for the reconciliation job. */
export async function refundsOwed(): Promise<string[]> {
  const db = await database();
  const rows = await db
    .select({ id: ticketPurchases.id })
    .from(ticketPurchases)
    .where(inArray(ticketPurchases.status, ["refunding"]));
  return rows.map((row) => row.id);
}
