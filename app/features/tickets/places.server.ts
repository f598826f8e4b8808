import { and, count, eq, gt } from "drizzle-orm";
import type { Transaction } from "~/platform/db/client.server";
import { eventAttendance, ticketPurchases } from "~/platform/db/schema";

/** Places taken at an event: members registered as paid (bought here or added by a manager), and checkouts in progress. */
export async function placesTaken(tx: Transaction, eventId: string, now: Date): Promise<number> {
  const [registered] = await tx
    .select({ n: count() })
    .from(eventAttendance)
    .where(and(eq(eventAttendance.eventId, eventId), eq(eventAttendance.paymentStatus, "paid")));
  const [holding] = await tx
    .select({ n: count() })
    .from(ticketPurchases)
    .where(
      and(
        eq(ticketPurchases.eventId, eventId),
        eq(ticketPurchases.status, "held"),
        gt(ticketPurchases.holdExpiresAt, now),
      ),
    );
  return (registered?.n ?? 0) + (holding?.n ?? 0);
}
