import { z } from "zod";

/**
 * The forms of the members' events page (routes/events/events.tsx): buying a ticket, giving up a
 * checkout left open, and a new calendar-feed address. The ids are checked where they are used
 * (checkout.server.ts), so a form sent by hand gets the same answer as an id that names nothing.
 */
export const EventsPageForms = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("buy_ticket"), eventId: z.string().default("") }),
  z.object({ intent: z.literal("cancel_checkout"), purchaseId: z.string().default("") }),
  z.object({ intent: z.literal("renew_feed") }),
]);

export const FEED_MESSAGES = {
  renewed:
    "Your calendar feed has a new address. The old one no longer works: subscribe to this one in your calendar app.",
  failed: "A new address could not be made. Please try again.",
  unknown: "That action is not available here.",
} as const;

/** What the events page shows after an action: the feed's answer (`ok`, `message`) or a ticket's. */
export type EventsActionData = { ok?: string; message?: string; ticket?: string; ticketOk?: string };
