import { Link } from "~/components/Link";
import type { Route } from "./+types/ticket-cancel";
import { pageErrorBoundary } from "~/components/PageErrorBoundary";
import { Alert } from "~/components/ui/Alert";
import { cancelCheckout } from "~/features/tickets/checkout.server";
import { TICKET_MESSAGES } from "~/features/tickets/tickets.messages";
import { requireAccess } from "~/web/guards.server";

/**
 * Where Stripe's checkout page sends a member who goes back without paying (cancel_url, with the
 * purchase's id): their checkout is ended at Stripe and the place it held given back at once,
 * rather than kept from everyone for the half hour Stripe would keep it open. Only the member's
 * own held purchase is touched, so a link sent by someone else can do no more than that.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireAccess(context, request, "member");
  const purchaseId = new URL(request.url).searchParams.get("purchase") ?? "";
  const cancelled = await cancelCheckout(user, purchaseId);
  const message =
    cancelled.outcome === "released"
      ? { kind: "success" as const, text: TICKET_MESSAGES.cancelled(cancelled.title) }
      : cancelled.outcome === "paid"
        ? { kind: "success" as const, text: TICKET_MESSAGES.cancelPaid }
        : cancelled.outcome === "failed"
          ? { kind: "error" as const, text: TICKET_MESSAGES.cancelFailed }
          : { kind: "error" as const, text: TICKET_MESSAGES.unknownCheckout };
  return { message, heading: cancelled.outcome === "released" ? "Checkout Cancelled" : "Your Ticket" };
}

export default function TicketCheckoutCancelled({ loaderData }: Route.ComponentProps) {
  const { message, heading } = loaderData;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-center text-4xl">{heading}</h1>
      <hr className="divider my-6" />
      <Alert kind={message.kind}>{message.text}</Alert>
      <p className="mt-6 text-center">
        <Link to="/events" className="btn btn-primary">
          Back to Upcoming Events
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Checkout Cancelled · Hopewell" }];

export const ErrorBoundary = pageErrorBoundary("Checkout Cancelled", "Failed to load your ticket");
