import { and, eq, lt } from "drizzle-orm";
import type { TimerJob } from "~/platform/jobs.server";
import { database, type Transaction } from "~/platform/db/client.server";
import { ticketPurchases } from "~/platform/db/schema";
import { logger } from "~/platform/logger.server";
import { expireOpenCheckouts } from "./checkout.server";
import { recordPayment } from "./payments.server";
import { refundsOwed, settleRefund } from "./refunds.server";
import { stripeClient } from "./stripe.server";

/** How far back each check asks Stripe: a hold lasts 30 minutes, so two days covers any missed notice many times over. */
const LOOK_BACK_MS = 48 * 60 * 60_000;
/** A hold past its expiry by this long, with no payment found, is given back (Stripe's expired notice may have been lost). */
const RELEASE_GRACE_MS = 10 * 60_000;
export const RECONCILE_EVERY_MS = 15 * 60_000;

export type Reconciled = { registered: number; refunded: number; released: number };

/**
 * Stripe does not promise to deliver every webhook: this asks Stripe itself for the Checkout
 * Sessions of the last two days and records each paid one the site has not (the same steps as
 * the webhook, so nothing is recorded twice), asks again for refunds still owed, and gives back
 * holds whose checkout ended unpaid.
 */
export async function reconcileWithStripe(now = new Date()): Promise<Reconciled | undefined> {
  const stripe = await stripeClient();
  if (!stripe) return undefined;
  const db = await database();
  const done: Reconciled = { registered: 0, refunded: 0, released: 0 };
  const owed: string[] = [];
  for await (const session of stripe.checkout.sessions.list({
    created: { gte: Math.floor((now.getTime() - LOOK_BACK_MS) / 1000) },
    limit: 100,
  })) {
    if (session.payment_status !== "paid" || !session.metadata?.purchase_id) continue;
    const acted = await db.transaction((tx: Transaction) => recordPayment(tx, session, now));
    if (acted.registered) done.registered++;
    if (acted.refund) owed.push(acted.refund);
  }
  for (const id of new Set([...owed, ...(await refundsOwed())])) if (await settleRefund(id, now)) done.refunded++;
  // Checkouts still open for an event cancelled while Stripe could not be reached.
  await expireOpenCheckouts({ cancelledEvents: true });
  const released = await db
    .update(ticketPurchases)
    .set({ status: "released" })
    .where(
      and(
        eq(ticketPurchases.status, "held"),
        lt(ticketPurchases.holdExpiresAt, new Date(now.getTime() - RELEASE_GRACE_MS)),
      ),
    )
    .returning({ id: ticketPurchases.id });
  done.released = released.length;
  if (done.registered || done.refunded || done.released)
    logger.info(done, "checked with Stripe: recorded what its notices missed");
  return done;
}

/** The check, every 15 minutes while tickets are sold on the site. */
export const ticketReconciliationJob: TimerJob = {
  name: "checking ticket payments with Stripe",
  firstAfterMs: 60_000,
  everyMs: RECONCILE_EVERY_MS,
  run: () => reconcileWithStripe(),
};
