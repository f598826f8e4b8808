import { formatEventDate } from "~/lib/dates";
import { formatDollars } from "~/game/merchant";
import type { RefundReason } from "~/game/tickets";
import type { EmailMessage } from "~/platform/outbox/outbox.server";
import { letterBodies } from "~/platform/mail/templates.server";

/** The receipt a member gets when Stripe confirms their ticket. */
export function ticketReceiptEmail(input: {
  to: string;
  firstName: string;
  eventTitle: string;
  eventDate: string;
  amountCents: number;
  eventsUrl: string;
}): EmailMessage {
  const paragraphs = [
    `Dear ${input.firstName},`,
    `Your payment of ${formatDollars(input.amountCents)} was received: you are registered for ${input.eventTitle} on ${formatEventDate(input.eventDate)}.`,
    "Stripe sends its own receipt for the payment. Your registration, the event's times and your costume photo's due date are on the events page.",
  ];
  return {
    to: input.to,
    subject: `Your ticket for ${input.eventTitle}`,
    ...letterBodies("Your ticket", paragraphs, {
      label: "See your events",
      url: input.eventsUrl,
      lead: "The events page",
    }),
  };
}

/** Why the member's money is coming back, in the words of the email that tells them. */
function refundExplained(reason: RefundReason, amount: string, event: string): string {
  switch (reason) {
    case "event-full":
      return `Your payment of ${amount} for ${event} arrived after your checkout's hold on a place had ended, and by then the event had filled. The whole payment has been refunded to you; Stripe says when it reaches your account.`;
    case "event-cancelled":
      return `Your payment of ${amount} for ${event} arrived after the event was cancelled. The whole payment has been refunded to you; Stripe says when it reaches your account.`;
    case "manager":
      return `The organisers refunded your ticket for ${event}: ${amount} is on its way back to you, and Stripe says when it reaches your account. Your place at the event has been given up.`;
    default:
      return `Your ticket for ${event} was refunded (${amount}); Stripe says when it reaches your account. The organisers will be in touch about your place at the event.`;
  }
}

/** Tells a member their ticket's payment was refunded, and why. */
export function memberRefundEmail(input: {
  to: string;
  firstName: string;
  eventTitle: string;
  eventDate: string;
  amountCents: number;
  reason: RefundReason;
  eventsUrl: string;
}): EmailMessage {
  const event = `${input.eventTitle} on ${formatEventDate(input.eventDate)}`;
  const paragraphs = [
    `Dear ${input.firstName},`,
    refundExplained(input.reason, formatDollars(input.amountCents), event),
    "If a place is free, the events page will offer a ticket again.",
  ];
  return {
    to: input.to,
    subject: `Your payment for ${input.eventTitle} was refunded`,
    ...letterBodies("Your payment was refunded", paragraphs, {
      label: "See the events",
      url: input.eventsUrl,
      lead: "The events page",
    }),
  };
}

/**
 * Tells a manager of a refund none of them made on the site: one made in Stripe's dashboard (the
 * member stays on the list marked unpaid, and the attendance page offers what to do), or a
 * payment the site sent back because its event was cancelled or its account deleted.
 */
export function paymentRefundedForManagersEmail(input: {
  to: string;
  eventTitle: string;
  eventDate: string;
  amountCents: number;
  reason: RefundReason;
  memberName: string | null;
  attendanceUrl: string;
}): EmailMessage {
  const event = `${input.eventTitle} on ${formatEventDate(input.eventDate)}`;
  const who = input.memberName ?? "a deleted account";
  const amount = formatDollars(input.amountCents);
  const paragraphs =
    input.reason === "stripe"
      ? [
          `${who}'s ticket for ${event} was refunded at Stripe (${amount}).`,
          "They stay on the event's list, marked unpaid, and are not counted as attending. On the attendance page, under the event's tickets, remove them from the list or record that they paid another way.",
        ]
      : [
          `A payment of ${amount} from ${who} for ${event} arrived ${input.reason === "event-cancelled" ? "after the event was cancelled" : "after the account was deleted"}. The site refunded it in full through Stripe; nobody was registered.`,
        ];
  return {
    to: input.to,
    subject: `A ticket for ${input.eventTitle} was refunded`,
    ...letterBodies("A ticket was refunded", paragraphs, {
      label: "Open the attendance page",
      url: input.attendanceUrl,
      lead: "The attendance page",
    }),
  };
}

/** Tells a member their bank debit for a ticket did not go through. */
export function failedDebitEmail(input: {
  to: string;
  firstName: string;
  eventTitle: string;
  eventDate: string;
  eventsUrl: string;
}): EmailMessage {
  const paragraphs = [
    `Dear ${input.firstName},`,
    `Your bank payment for ${input.eventTitle} on ${formatEventDate(input.eventDate)} did not go through, so you are not registered and nothing was taken.`,
    "To attend, buy a ticket again from the events page, by card or another account. Your bank can tell you why the payment was refused.",
  ];
  return {
    to: input.to,
    subject: `Your payment for ${input.eventTitle} did not go through`,
    ...letterBodies("Your payment did not go through", paragraphs, {
      label: "See the events",
      url: input.eventsUrl,
      lead: "The events page",
    }),
  };
}
