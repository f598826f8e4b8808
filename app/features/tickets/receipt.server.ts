import { formatEventDate } from "~/lib/dates";
import { formatDollars } from "~/game/merchant";
import type { EmailMessage } from "~/platform/outbox/outbox.server";
import { layout } from "~/platform/mail/templates.server";

/** The receipt a member gets when Stripe confirms their ticket. */
export function ticketReceiptEmail(input: { to: string; firstName: string; eventTitle: string; eventDate: string; amountCents: number; eventsUrl: string }): EmailMessage {
  const paragraphs = [
    `Dear ${input.firstName},`,
    `Your payment of ${formatDollars(input.amountCents)} was received: you are registered for ${input.eventTitle} on ${formatEventDate(input.eventDate)}.`,
    "Stripe sends its own receipt for the payment. Your registration, the event's times and your costume photo's due date are on the events page.",
  ];
  return {
    to: input.to,
    subject: `Your ticket for ${input.eventTitle}`,
    text: `${paragraphs.join("\n\n")}\n\nThe events page: ${input.eventsUrl}\n\nHopewell · a western survival and horror larp\n`,
    html: layout("Your ticket", paragraphs, { label: "See your events", url: input.eventsUrl }),
  };
}
