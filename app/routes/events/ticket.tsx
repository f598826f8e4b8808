import { Link } from "~/components/Link";
import type { Route } from "./+types/ticket";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { formatDollars } from "~/game/merchant";
import { formatEventDate } from "~/lib/dates";
import { purchaseAfterCheckout } from "~/features/tickets/checkout.server";
import { TICKET_MESSAGES } from "~/features/tickets/tickets.messages";
import { requireAccess } from "~/web/guards.server";

/**
 * Where Stripe's checkout sends the member back (success_url, with the Checkout Session's id).
 * The payment counts once Stripe's webhook has told the site; until then the page says it is
 * being confirmed, and a refresh shows the outcome (no script needed).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  const purchase = /^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId) ? await purchaseAfterCheckout(user, sessionId) : undefined;
  return { purchase: purchase ?? null, refresh: `/events/ticket?session_id=${encodeURIComponent(sessionId)}` };
}

export default function TicketAfterCheckout({ loaderData }: Route.ComponentProps) {
  const { purchase, refresh } = loaderData;
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
              {purchase.amountCents !== null ? ` · ${formatDollars(purchase.amountCents)} paid` : null}. A receipt is on its way to your email.
            </p>
          </div>
        </>
      ) : (
        <>
          <h1 className="text-center text-4xl">{TICKET_MESSAGES.confirming}</h1>
          <hr className="divider my-6" />
          <div className="panel" role="status">
            <p>
              {purchase.title}, <time dateTime={purchase.date}>{formatEventDate(purchase.date)}</time>. {TICKET_MESSAGES.confirmingHint}
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
