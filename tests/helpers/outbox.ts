import { deliverEmail } from "~/platform/mail/mailer.server";
import { deliverDueMessages } from "~/platform/outbox/outbox-worker.server";

/** One round of the outbox worker for email, as the server's worker runs it. */
export function deliverMailNow() {
  return deliverDueMessages({ email: deliverEmail });
}
