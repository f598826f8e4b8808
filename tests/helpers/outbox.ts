import { deliverEmail } from "~/server/mail/mailer.server";
import { deliverDueMessages } from "~/server/outbox/outbox.server";

/** One round of the outbox worker for email, as the server's worker runs it. */
export function deliverMailNow() {
  return deliverDueMessages({ email: deliverEmail });
}
