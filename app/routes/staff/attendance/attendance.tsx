import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/Link";
import { isMemberId, isUuid } from "~/lib/ids";
import type { Route } from "./+types/attendance";
import { clubToday, formatEventDate } from "~/lib/dates";
import { attendanceSummary, paidAttendees, settleUnpaidRegistration } from "~/features/attendance/attendance.server";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { requireAccess } from "~/web/guards.server";
import { isManager } from "~/game/roles";
import {
  lastStripeNoticeAt,
  markNoticeDealtWith,
  refundableTicket,
  stripeNoticesToLookAt,
  ticketLedger,
} from "~/features/tickets/ledger.server";
import { reconcileWithStripe } from "~/features/tickets/reconcile.server";
import { refundFromSite } from "~/features/tickets/refunds.server";
import { ticketSalesEnabled } from "~/features/tickets/stripe.server";
import { NoticesToLookAt, refundQuestion, TicketLedgerSection, When } from "~/features/tickets/TicketLedger";
import { checkedWithStripeMessage, TICKET_MESSAGES } from "~/features/tickets/tickets.messages";
import { formatDollars } from "~/game/merchant";
import { MemberConfirmPanel, type MemberConfirmation } from "~/features/member-admin/MemberConfirm";
import { Alert } from "~/components/ui/Alert";
import { readForm, type FormValues } from "~/web/forms/kernel";
import { audit } from "~/platform/audit.server";
import { config } from "~/platform/config.server";
import { database } from "~/platform/db/client.server";
import type { SessionUser } from "~/lib/navigation";

/** Paid attendance by event, upcoming events first (soonest first), then past ones (latest first); an event's list is loaded when it is opened. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "staff");
  const open = new URL(request.url).searchParams.get("event");
  const [events, opened] = await Promise.all([attendanceSummary(), isUuid(open) ? paidAttendees(open) : null]);
  const today = clubToday(new Date(), config().clubTimeZone);
  // Who paid and how much are for the managers.
  const manager = isManager(user.role);
  const tickets = manager && opened && isUuid(open) ? ((await ticketLedger(open, opened.rows.length)) ?? null) : null;
  const stripe =
    manager && ticketSalesEnabled()
      ? { notices: await stripeNoticesToLookAt(), lastNoticeAt: await lastStripeNoticeAt() }
      : null;
  return {
    upcoming: events.filter((event) => event.date >= today).reverse(),
    past: events.filter((event) => event.date < today),
    open,
    opened,
    tickets,
    stripe,
  };
}

type ActionData = { checked?: string; checkError?: string; ok?: string; error?: string; confirm?: MemberConfirmation };

/** A manager refunds a paid ticket: without `confirm=yes`, the confirmation naming the member, the amount and the event. */
async function refundTicket(manager: SessionUser, fields: FormValues) {
  const purchaseId = typeof fields.purchaseId === "string" ? fields.purchaseId : "";
  if (fields.confirm !== "yes") {
    const ticket = await refundableTicket(purchaseId);
    if (!ticket)
      return data<ActionData>(
        { error: "That ticket is not paid (any more): it may have been refunded already." },
        { status: 404 },
      );
    return data<ActionData>({
      confirm: {
        question: refundQuestion(ticket),
        yes: `Refund ${formatDollars(ticket.amountCents)}`,
        fields: { intent: "refund_ticket", purchaseId },
      },
    });
  }
  const refunded = await refundFromSite(manager, purchaseId);
  switch (refunded.outcome) {
    case "refunded":
      return data<ActionData>({
        ok: `Refunded ${formatDollars(refunded.amountCents)} to ${refunded.name} for ${refunded.eventTitle}; they have been emailed.`,
      });
    case "already":
      return data<ActionData>({ ok: "That ticket was refunded already." });
    case "pending":
      return data<ActionData>(
        {
          error:
            "Stripe could not be reached. The refund is asked for again within 15 minutes; the ticket reads “Being refunded” until then.",
        },
        { status: 503 },
      );
    case "refused":
      return data<ActionData>(
        { error: `Stripe refused the refund: ${refunded.message} The ticket is still paid.` },
        { status: 409 },
      );
    default:
      return data<ActionData>(
        { error: "That ticket is not paid (any more): it may have been refunded already." },
        { status: 404 },
      );
  }
}

/** A manager settles a member left on the list unpaid: off the list, or paid another way. */
async function settleUnpaid(manager: SessionUser, fields: FormValues, eventId: string | null) {
  const settle = fields.intent === "remove_unpaid" ? "remove" : "record-payment";
  const userId = typeof fields.userId === "string" ? fields.userId : "";
  if (!eventId || !isMemberId(userId))
    return data<ActionData>({ error: "That member is not on this event's list without a payment." }, { status: 404 });
  if (fields.confirm !== "yes") {
    return data<ActionData>({
      confirm: {
        question:
          settle === "remove"
            ? "Take this member off the event's list?"
            : "Record that this member paid another way? They count as attending again.",
        yes: settle === "remove" ? "Remove from the list" : "Record a payment",
        fields: { intent: String(fields.intent), userId },
      },
    });
  }
  const settled = await settleUnpaidRegistration(manager, { eventId, userId, settle });
  if (settled.outcome !== "done")
    return data<ActionData>({ error: "That member is not on this event's list without a payment." }, { status: 404 });
  return data<ActionData>({
    ok: settle === "remove" ? `${settled.name} was taken off the list.` : `${settled.name} is recorded as paid.`,
  });
}

/** "Check with Stripe now": the reconciliation job's check, at once, for a manager who wonders where a payment is. */
async function checkWithStripe(manager: SessionUser) {
  try {
    const done = await reconcileWithStripe();
    if (!done) return data<ActionData>({ checkError: TICKET_MESSAGES["not-for-sale"] }, { status: 400 });
    await audit(await database(), { actorId: manager.id, action: "ticket.check", details: done });
    return data<ActionData>({ checked: checkedWithStripeMessage(done) });
  } catch (error) {
    // A key Stripe does not accept is the operator's to fix, not a moment's outage.
    const refusedKey =
      (error as { type?: string }).type === "StripeAuthenticationError" ||
      (error as { type?: string }).type === "StripePermissionError";
    return data<ActionData>(
      { checkError: refusedKey ? TICKET_MESSAGES.keyRefused : TICKET_MESSAGES.failed },
      { status: 503 },
    );
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const manager = requireAccess(context, request, "manager");
  const fields = await readForm(request);
  const eventId = new URL(request.url).searchParams.get("event");
  switch (fields.intent) {
    case "check_stripe":
      return checkWithStripe(manager);
    case "refund_ticket":
      return refundTicket(manager, fields);
    case "remove_unpaid":
    case "record_payment":
      return settleUnpaid(manager, fields, isUuid(eventId) ? eventId : null);
    case "notice_dealt_with":
      return (await markNoticeDealtWith(manager, typeof fields.noticeId === "string" ? fields.noticeId : ""))
        ? data<ActionData>({ ok: TICKET_MESSAGES.dealtWith })
        : data<ActionData>({ error: "That notice is not waiting for a manager." }, { status: 404 });
    default:
      return data<ActionData>({ error: "That action is not available here." }, { status: 400 });
  }
}

type Listed = Route.ComponentProps["loaderData"]["past"][number];

export default function Attendance({ loaderData, actionData }: Route.ComponentProps) {
  const { upcoming, past, open, opened, tickets, stripe } = loaderData;
  const sending = useNavigation().formData?.get("intent");
  const checking = sending === "check_stripe";
  const answer = actionData as ActionData | undefined;
  const eventItem = (event: Listed) => {
    const isOpen = open === event.id && opened;
    return (
      <li key={event.id} className="panel p-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Link
            to={isOpen ? "?" : `?event=${event.id}`}
            aria-expanded={Boolean(isOpen)}
            className="font-display text-xl text-brass no-underline hover:underline"
            preventScrollReset
          >
            {event.title}
          </Link>
          <span className="text-sm text-dust">{`${formatEventDate(event.date)} · ${event.attendees} paid`}</span>
        </div>
        {isOpen ? (
          <div className="mt-4 flex flex-col gap-3">
            {answer?.confirm ? <MemberConfirmPanel pending={answer.confirm} busy={Boolean(sending)} /> : null}
            {answer?.ok ? <Alert kind="success">{answer.ok}</Alert> : null}
            {answer?.error ? <Alert kind="error">{answer.error}</Alert> : null}
            {opened.rows.length === 0 ? (
              <p className="text-dust">Nobody is recorded for this event yet.</p>
            ) : (
              <table className="w-full border-collapse text-left">
                <thead>
                  <tr className="border-b border-timber text-dust">
                    <th scope="col" className="py-2 pr-3">
                      Name
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Character
                    </th>
                    <th scope="col" className="py-2">
                      Cabin
                    </th>
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
            {tickets ? (
              <TicketLedgerSection
                ledger={tickets}
                eventId={event.id}
                eventTitle={event.title}
                eventDate={event.date}
                busy={Boolean(sending)}
              />
            ) : null}
            <a href={`/attendance/${event.id}/csv`} className="btn btn-secondary self-start" download>
              Export CSV<span className="sr-only"> for {event.title}</span>
            </a>
          </div>
        ) : null}
      </li>
    );
  };
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
            <span className="text-sm text-dust">
              Payments whose notice from Stripe was lost are also looked for every 15 minutes.
            </span>
          </Form>
          <p className="text-sm" data-testid="last-stripe-notice">
            {stripe.lastNoticeAt ? (
              <>
                Stripe's last signed notice arrived <When at={stripe.lastNoticeAt} />.
              </>
            ) : (
              "No signed notice from Stripe has arrived yet. Once a ticket is bought, one should: if none does, check the webhook's address and signing secret (the operators' guide, Tickets through Stripe)."
            )}
          </p>
          {answer?.checked ? <Alert kind="success">{answer.checked}</Alert> : null}
          {answer?.checkError ? <Alert kind="error">{answer.checkError}</Alert> : null}
          {!opened && answer?.error ? <Alert kind="error">{answer.error}</Alert> : null}
          {!opened && answer?.ok ? <Alert kind="success">{answer.ok}</Alert> : null}
          {stripe.notices.length > 0 ? <NoticesToLookAt notices={stripe.notices} busy={Boolean(sending)} /> : null}
        </section>
      ) : null}
      {upcoming.length > 0 ? (
        <section aria-labelledby="upcoming-events" className="mb-6">
          <h2 id="upcoming-events" className="mb-3 text-2xl">
            Upcoming events
          </h2>
          <ul className="flex flex-col gap-3">{upcoming.map(eventItem)}</ul>
        </section>
      ) : null}
      {past.length > 0 ? (
        <section aria-labelledby="past-events">
          <h2 id="past-events" className="mb-3 text-2xl">
            Past events
          </h2>
          <ul className="flex flex-col gap-3">{past.map(eventItem)}</ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Attendance · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Attendance", "Failed to load attendance data");
