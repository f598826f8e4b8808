import { Link } from "~/components/Link";
import type { Route } from "./+types/ticket";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { formatDollars } from "~/game/merchant";
import { formatClubDay, formatEventDate } from "~/lib/dates";
import { purchaseAfterCheckout } from "~/features/tickets/checkout.server";
import { REFUND_REASON_WORDS, TICKET_MESSAGES } from "~/features/tickets/tickets.messages";
import { requireAccess } from "~/web/guards.server";

/**
 * Where Stripe's checkout sends the member back (success_url, with the Checkout Session's id).
 * The payment counts once Stripe's webhook has told the site; until then the page says it is
 * being confirmed, and a refresh shows the outcome (no script needed): paid, refunded (and why),
 * a bank debit that failed, or a checkout that ended unpaid.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  const purchase = /^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)
    ? await purchaseAfterCheckout(user, sessionId)
    : undefined;
  return { purchase: purchase ?? null, refresh: `/events/ticket?session_id=${encodeURIComponent(sessionId)}` };
}

/** What the page says of a purchase that did not end in a ticket: its heading and its explanation. */
function endedWithout(
  purchase: NonNullable<Route.ComponentProps["loaderData"]["purchase"]>,
): { heading: string; text: string } | undefined {
  const refunded = purchase.refundedCents ?? purchase.amountCents;
  const amount = refunded !== null ? ` (${formatDollars(refunded)})` : "";
  const reason = purchase.refundReason ? REFUND_REASON_WORDS[purchase.refundReason] : "";
  if (purchase.status === "refunded") {
    const on = purchase.refundedAt ? ` on ${formatClubDay(purchase.refundedAt)}` : "";
    return {
      heading: TICKET_MESSAGES.refunded,
      text: [`Refunded${on}${amount}.`, reason, "Stripe says when the money reaches your account."]
        .filter(Boolean)
        .join(" "),
    };
  }
  if (purchase.status === "refunding")
    return {
      heading: TICKET_MESSAGES.refunding,
      text: [reason, `The whole payment${amount} is being refunded; you will have an email when it is done.`]
        .filter(Boolean)
        .join(" "),
    };
  if (purchase.status === "failed")
    return { heading: TICKET_MESSAGES.debitFailed, text: TICKET_MESSAGES.debitFailedHint };
  if (purchase.status === "released")
    return { heading: TICKET_MESSAGES.checkoutEnded, text: TICKET_MESSAGES.checkoutEndedHint };
  return undefined;
}

export default function TicketAfterCheckout({ loaderData }: Route.ComponentProps) {
  const { purchase, refresh } = loaderData;
  const ended = purchase ? endedWithout(purchase) : undefined;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      {!purchase ? (
        <>
          <h1 className="text-center text-4xl">Your Ticket</h1>
          <hr className="divider my-6" />
          <Alert kind="error">{TICKET_MESSAGES.unknownCheckout}</Alert>
        </>
      ) : purchase.status === "paid" ? (
        <>
          <h1 className="text-center text-4xl">{TICKET_MESSAGES.paid}</h1>
          <hr className="divider my-6" />
          <div className="panel" role="status">
            <p>
              {purchase.title}, <time dateTime={purchase.date}>{formatEventDate(purchase.date)}</time>
              {purchase.amountCents !== null ? ` · ${formatDollars(purchase.amountCents)} paid` : null}. A receipt is on
              its way to your email.
            </p>
          </div>
        </>
      ) : ended ? (
        <>
          <h1 className="text-center text-4xl">{ended.heading}</h1>
          <hr className="divider my-6" />
          <div className="panel" role="status" data-testid="ticket-outcome">
            <p>
              {purchase.title}, <time dateTime={purchase.date}>{formatEventDate(purchase.date)}</time>.
            </p>
            <p className="mt-2">{ended.text}</p>
          </div>
        </>
      ) : (
        <>
          <h1 className="text-center text-4xl">{TICKET_MESSAGES.confirming}</h1>
          <hr className="divider my-6" />
          <div className="panel" role="status">
            <p>
              {purchase.title}, <time dateTime={purchase.date}>{formatEventDate(purchase.date)}</time>.{" "}
              {TICKET_MESSAGES.confirmingHint}
            </p>
            <p className="mt-4">
              <a href={refresh} className="btn btn-secondary">
                Refresh
              </a>
            </p>
          </div>
        </>
      )}
      <p className="mt-6 text-center">
        <Link to="/events">Back to Upcoming Events</Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Your Ticket · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Your Ticket", "Failed to load your ticket");
