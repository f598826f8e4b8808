// What the buttons of the members' events page (routes/events/events.tsx) do, one function each,
// with the message and status each outcome is answered with.
import { data, redirect } from "react-router";
import type { SessionUser } from "~/lib/navigation";
import { cancelCheckout, startCheckout } from "~/features/tickets/checkout.server";
import { TICKET_MESSAGES } from "~/features/tickets/tickets.messages";
import { failSafely, type ActionAnswer } from "~/web/actions.server";
import { renewCalendarFeed } from "./calendar-feed.server";
import { FEED_MESSAGES, type EventsActionData } from "./events-page.form";

type Answer = Promise<ActionAnswer<EventsActionData>>;

/** A ticket for the event: off to Stripe's checkout page (back on /events/ticket once paid), or why not. */
export async function buyTicket(user: SessionUser, eventId: string, siteUrl: string): Answer {
  const started = await startCheckout(user, eventId, siteUrl);
  if (started.outcome === "checkout") throw redirect(started.url);
  return data<EventsActionData>(
    { ticket: TICKET_MESSAGES[started.outcome] },
    { status: started.outcome === "failed" ? 503 : 409 },
  );
}

/** Gives up a checkout the member left open, so their place goes back. */
export async function giveUpCheckout(user: SessionUser, purchaseId: string): Answer {
  const cancelled = await cancelCheckout(user, purchaseId);
  if (cancelled.outcome === "released")
    return data<EventsActionData>({ ticketOk: TICKET_MESSAGES.cancelled(cancelled.title) });
  if (cancelled.outcome === "paid") return data<EventsActionData>({ ticketOk: TICKET_MESSAGES.cancelPaid });
  return data<EventsActionData>(
    { ticket: cancelled.outcome === "failed" ? TICKET_MESSAGES.cancelFailed : TICKET_MESSAGES.unknownCheckout },
    { status: cancelled.outcome === "failed" ? 503 : 404 },
  );
}

/** A new calendar-feed address, for a member who fears theirs has been passed on: the old one stops working. */
export async function renewFeed(user: SessionUser): Answer {
  return failSafely<EventsActionData>(
    "renewing a calendar feed address",
    { message: FEED_MESSAGES.failed },
    async () => {
      await renewCalendarFeed(user.id);
      return data<EventsActionData>({ ok: FEED_MESSAGES.renewed });
    },
  );
}
