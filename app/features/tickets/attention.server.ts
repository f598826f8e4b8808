import { sql } from "drizzle-orm";
import { STRIPE_EVENTS_TO_LOOK_AT } from "~/game/tickets";
import { database, rawRows } from "~/platform/db/client.server";
import { eventAttendance, events, stripeEvents, ticketPurchases } from "~/platform/db/schema";
import { ticketSalesEnabled } from "./stripe.server";

/**
 * What of the ticket payments waits for a manager, as the attendance page shows it: the notices
 * from Stripe the site could not act on (its warning, until marked dealt with), and members left on
 * the list of an event sold on the site without a payment (its "On the list without a payment",
 * until recorded or removed).
 */
export type PaymentsToLookAt = { notices: number; unpaid: number };

/**
 * The counts of each, in one query; null when tickets are not sold on the site (no Stripe keys),
 * where the attendance page shows neither. Neither table announces its writes, so it is read
 * each time; both parts are small (the notices by their outcome's index, the unpaid rows of a
 * club's attendance).
 */
export async function paymentsToLookAt(): Promise<PaymentsToLookAt | null> {
  if (!ticketSalesEnabled()) return null;
  const db = await database();
  const outcomes = sql.join(
    STRIPE_EVENTS_TO_LOOK_AT.map((outcome) => sql`${outcome}`),
    sql`, `,
  );
  const [row] = await rawRows<PaymentsToLookAt>(
    db,
    sql`select
          (select count(*) from ${stripeEvents}
            where ${stripeEvents.outcome} in (${outcomes}) and ${stripeEvents.dealtWithAt} is null)::int as notices,
          (select count(*) from ${eventAttendance} a join ${events} e on e.id = a.event_id
            where a.payment_status <> 'paid'
              and (e.ticket_price_cents is not null
                or exists (select 1 from ${ticketPurchases} p where p.event_id = e.id)))::int as unpaid`,
  );
  return { notices: Number(row?.notices ?? 0), unpaid: Number(row?.unpaid ?? 0) };
}
