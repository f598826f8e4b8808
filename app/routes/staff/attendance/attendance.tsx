import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { isUuid } from "~/lib/ids";
import type { Route } from "./+types/attendance";
import { formatEventDate } from "~/lib/dates";
import { attendanceSummary, paidAttendees } from "~/features/attendance/attendance.server";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/web/guards.server";
import { isManager } from "~/game/roles";
import { ticketLedger, unmatchedStripeEvents } from "~/features/tickets/ledger.server";
import { reconcileWithStripe } from "~/features/tickets/reconcile.server";
import { ticketSalesEnabled } from "~/features/tickets/stripe.server";
import { TicketLedgerSection } from "~/features/tickets/TicketLedger";
import { checkedWithStripeMessage, TICKET_MESSAGES } from "~/features/tickets/tickets.messages";
import { Alert } from "~/components/ui/Alert";
import { readForm } from "~/web/forms/kernel";
import { audit } from "~/platform/audit.server";
import { database } from "~/platform/db/client.server";

/** Paid attendance by event; an event's list is loaded when it is opened. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "staff");
  const open = new URL(request.url).searchParams.get("event");
  const [events, opened] = await Promise.all([attendanceSummary(), isUuid(open) ? paidAttendees(open) : null]);
  // Who paid and how much are for the managers.
  const manager = isManager(user.role);
  const tickets = manager && opened && isUuid(open) ? ((await ticketLedger(open, opened.rows.length)) ?? null) : null;
  const stripe = manager && ticketSalesEnabled() ? { unmatched: await unmatchedStripeEvents() } : null;
  return { events, open, opened, tickets, stripe };
}

/** "Check with Stripe now": the reconciliation job's check, at once, for a manager who wonders where a payment is. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  if (fields.intent !== "check_stripe") return data({ error: "That action is not available here." }, { status: 400 });
  try {
    const done = await reconcileWithStripe();
    if (!done) return data({ error: TICKET_MESSAGES["not-for-sale"] }, { status: 400 });
    await audit(await database(), { actorId: user.id, action: "ticket.check", details: done });
    return { checked: checkedWithStripeMessage(done) };
  } catch {
    return data({ error: TICKET_MESSAGES.failed }, { status: 503 });
  }
}

export default function Attendance({ loaderData, actionData }: Route.ComponentProps) {
  const { events, open, opened, tickets, stripe } = loaderData;
  const checking = useNavigation().formData?.get("intent") === "check_stripe";
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-center text-5xl">Attendance</h1>
      <hr className="divider my-6" />
      {stripe ? (
        <section aria-label="Ticket payments" className="mb-6 flex flex-col gap-3">
          <Form method="post" className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="check_stripe" />
            <button type="submit" className="btn btn-secondary" disabled={checking}>
              {checking ? "Checking with Stripe…" : "Check with Stripe now"}
            </button>
            <span className="text-sm text-dust">Payments whose notice from Stripe was lost are also looked for every 15 minutes.</span>
          </Form>
          {actionData && "checked" in actionData ? <Alert kind="success">{actionData.checked}</Alert> : null}
          {actionData && "error" in actionData ? <Alert kind="error">{actionData.error}</Alert> : null}
          {stripe.unmatched > 0 ? <Alert kind="warning">{TICKET_MESSAGES.unmatched(stripe.unmatched)}</Alert> : null}
        </section>
      ) : null}
      <ul className="flex flex-col gap-3">
        {events.map((event) => {
          const isOpen = open === event.id && opened;
          return (
            <li key={event.id} className="panel p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <Link to={isOpen ? "?" : `?event=${event.id}`} aria-expanded={Boolean(isOpen)} className="font-display text-xl text-brass no-underline hover:underline" preventScrollReset>
                  {event.title}
                </Link>
                <span className="text-sm text-dust">{`${formatEventDate(event.date)} · ${event.attendees} paid`}</span>
              </div>
              {isOpen ? (
                <div className="mt-4 flex flex-col gap-3">
                  {opened.rows.length === 0 ? (
                    <p className="text-dust">Nobody is recorded for this event yet.</p>
                  ) : (
                    <table className="w-full border-collapse text-left">
                      <thead>
                        <tr className="border-b border-timber text-dust">
                          <th scope="col" className="py-2 pr-3">Name</th>
                          <th scope="col" className="py-2 pr-3">Character</th>
                          <th scope="col" className="py-2">Cabin</th>
                        </tr>
                      </thead>
                      <tbody>
                        {opened.rows.map((row, i) => (
                          <tr key={i} className="border-b border-timber/40">
                            <td className="py-2 pr-3">{`${row.firstName} ${row.lastName}`}</td>
                            <td className="py-2 pr-3">{row.characterName ?? "No character"}</td>
                            <td className="py-2">{row.cabin ?? "Not assigned"}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                  {tickets ? <TicketLedgerSection ledger={tickets} eventTitle={event.title} /> : null}
                  <a href={`/attendance/${event.id}/csv`} className="btn btn-secondary self-start" download>
                    Export CSV<span className="sr-only"> for {event.title}</span>
                  </a>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Attendance · Hopewell" }];

/** A failed read shows the page's own message (logged once by handleError). */
export const ErrorBoundary = pageErrorBoundary("Attendance", "Failed to load attendance data");
