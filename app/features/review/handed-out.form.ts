import { z } from "zod";
import { isUuid } from "~/lib/ids";

/** Marking a merchant order handed out at the event (the event-day sheet, /view-merchant-orders). */
export const HANDED_OUT_MESSAGES = {
  noSuchOrder: "That order is no longer there.",
  failed: "The order could not be marked. Please try again.",
  handedOut: "Marked as handed out.",
  undone: "No longer marked as handed out.",
  /** Pressed on the event-day sheet's offline copy: nothing reached the site. */
  offline: "You are offline: this order is not marked as handed out. Press again once you have signal.",
} as const;

const HANDED_OUT_INTENTS = ["hand_out", "undo_hand_out"] as const;

/** Whether a posted form is about handing an order out (the orders review takes queue forms too). */
export function isHandedOutIntent(intent: string | undefined): boolean {
  return (HANDED_OUT_INTENTS as readonly (string | undefined)[]).includes(intent);
}

export const HandedOutForm = z.object({
  intent: z.enum(HANDED_OUT_INTENTS, { error: HANDED_OUT_MESSAGES.noSuchOrder }),
  orderId: z.string({ error: HANDED_OUT_MESSAGES.noSuchOrder }).refine(isUuid, HANDED_OUT_MESSAGES.noSuchOrder),
});
