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

/** Tells a member their payment was refunded: the event filled while their checkout was open. */
export function soldOutRefundEmail(input: { to: string; firstName: string; eventTitle: string; eventDate: string; amountCents: number; eventsUrl: string }): EmailMessage {
  const paragraphs = [
    `Dear ${input.firstName},`,
    `Your payment of ${formatDollars(input.amountCents)} for ${input.eventTitle} on ${formatEventDate(input.eventDate)} arrived after your checkout's hold on a place had ended, and by then the event had filled. The whole payment has been refunded to you; Stripe says when it reaches your account.`,
    "If a place comes free, the events page will offer a ticket again.",
  ];
  return {
    to: input.to,
    subject: `Your payment for ${input.eventTitle} was refunded`,
    text: `${paragraphs.join("\n\n")}\n\nThe events page: ${input.eventsUrl}\n\nHopewell · a western survival and horror larp\n`,
    html: layout("Your payment was refunded", paragraphs, { label: "See the events", url: input.eventsUrl }),
  };
}

/** Tells a manager a ticket was refunded at Stripe: the member stays on the list, marked unpaid. */
export function refundedAtStripeEmail(input: { to: string; eventTitle: string; eventDate?: string; amountCents: number }): EmailMessage {
  const when = input.eventDate ? ` on ${formatEventDate(input.eventDate)}` : "";
  const paragraphs = [
    `A ticket for ${input.eventTitle}${when} was refunded at Stripe (${formatDollars(input.amountCents)}).`,
    "The member stays on the event's attendance list, marked unpaid: remove them or record a new payment there.",
  ];
  return {
    to: input.to,
    subject: `A ticket for ${input.eventTitle} was refunded`,
    text: `${paragraphs.join("\n\n")}\n\nHopewell · a western survival and horror larp\n`,
    html: layout("A ticket was refunded", paragraphs),
  };
}
