import { Form } from "react-router";
import { ConfirmedButton } from "~/features/member-admin/member/parts";
import { formatDollars } from "~/game/merchant";
import { TICKET_CURRENCY } from "~/game/tickets";
import { formatClubTimeWithZone, formatEventDate } from "~/lib/dates";
import type { NoticeToLookAt, TicketLedger } from "./ledger.server";
import { placesLeftText, TICKET_MESSAGES } from "./tickets.messages";

const STATUS_WORDS = {
  paid: "Paid",
  refunding: "Being refunded",
  refunded: "Refunded",
  held: "At checkout",
  released: "Released",
  failed: "Payment failed",
} as const;
const REFUNDED_BY = {
  manager: "on the site",
  stripe: "at Stripe",
  "event-full": "event full",
  "event-cancelled": "event cancelled",
  "account-deleted": "account deleted",
} as const;

/** A moment on the club's clock with its zone's name, as a <time>. */
export function When({ at }: { at: Date | string }) {
  return <time dateTime={new Date(at).toISOString()}>{formatClubTimeWithZone(at)}</time>;
}

/**
 * An event's tickets for the managers: who paid, how much and when, with a Refund button on each
 * paid ticket (confirmed first, naming the member, the amount and the event); refunds and why;
 * the total taken and the places left; and the members left on the list unpaid (a ticket refunded
 * at Stripe), each to take off the list or to record as paid another way.
 */
export function TicketLedgerSection({
  ledger,
  eventId,
  eventTitle,
  eventDate,
  busy,
}: {
  ledger: TicketLedger;
  eventId: string;
  eventTitle: string;
  eventDate: string;
  busy: boolean;
}) {
  const summary = [
    ledger.priceCents !== null ? `Tickets ${formatDollars(ledger.priceCents)}` : "No longer sold on the site",
    `${formatDollars(ledger.takenCents)} taken`,
    ledger.placesLeft === null || ledger.places === null
      ? "no limit on places"
      : placesLeftText(ledger.placesLeft, ledger.places),
  ].join(" · ");
  return (
    <section aria-label={`Tickets for ${eventTitle}`} className="flex flex-col gap-2 border-t border-timber pt-3">
      <h3 className="text-lg">Tickets</h3>
      <p className="text-sm text-dust" data-testid="ticket-summary">
        {summary}
      </p>
      {ledger.rows.length === 0 ? (
        <p className="text-dust">No ticket has been paid for on the site yet.</p>
      ) : (
        <div>
          {/* On a phone each ticket reads as a line of its own, rather than a table wider than the screen. */}
          <table className="w-full border-collapse text-left">
            <thead className="max-sm:sr-only">
              <tr className="border-b border-timber text-dust">
                <th scope="col" className="py-2 pr-3">
                  Name
                </th>
                <th scope="col" className="py-2 pr-3">
                  Amount
                </th>
                <th scope="col" className="py-2 pr-3">
                  Paid
                </th>
                <th scope="col" className="py-2 pr-3">
                  Status
                </th>
                <th scope="col" className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {ledger.rows.map((row) => (
                <tr
                  key={row.purchaseId}
                  className="border-b border-timber/40 align-top max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3 max-sm:py-2"
                >
                  <td className="py-2 pr-3 max-sm:w-full max-sm:p-0 max-sm:font-bold">{row.name}</td>
                  <td className="py-2 pr-3 max-sm:p-0">
                    {row.amountCents === null ? "—" : formatDollars(row.amountCents)}
                  </td>
                  <td className="py-2 pr-3 max-sm:p-0">
                    {row.paidAt ? (
                      <>
                        <span className="sm:hidden">paid </span>
                        <When at={row.paidAt} />
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td className="py-2 pr-3 max-sm:w-full max-sm:p-0">
                    {STATUS_WORDS[row.status]}
                    {row.refundReason ? ` ${REFUNDED_BY[row.refundReason]}` : null}
                    {row.refundedAt ? (
                      <>
                        {row.refundedCents !== null ? ` (${formatDollars(row.refundedCents)})` : null}{" "}
                        <When at={row.refundedAt} />
                      </>
                    ) : null}
                  </td>
                  <td className="py-2 max-sm:p-0">
                    {row.status === "paid" ? (
                      <ConfirmedButton
                        intent="refund_ticket"
                        extra={{ purchaseId: row.purchaseId }}
                        question={refundQuestion({
                          name: row.name,
                          amountCents: row.amountCents ?? 0,
                          eventTitle,
                          eventDate,
                        })}
                        label="Refund"
                        hidden={` ${row.name}'s ticket`}
                        busy={busy}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {ledger.unpaid.length > 0 ? (
        <section
          aria-labelledby={`unpaid-${eventId}`}
          className="mt-2 flex flex-col gap-2 rounded-md border border-brass p-3"
          data-testid="unpaid-registrations"
        >
          <h4 id={`unpaid-${eventId}`} className="font-bold">
            On the list without a payment
          </h4>
          <p className="text-sm">
            Their ticket was refunded at Stripe (or they were brought in unpaid). They are not counted as attending
            until a payment is recorded.
          </p>
          <ul className="flex flex-col gap-2">
            {ledger.unpaid.map((member) => (
              <li key={member.userId} className="flex flex-wrap items-center gap-3">
                <span className="grow">{member.name}</span>
                <ConfirmedButton
                  intent="record_payment"
                  extra={{ userId: member.userId }}
                  question={`Record that ${member.name} paid for ${eventTitle} another way? They count as attending again.`}
                  label="Record a payment"
                  hidden={` for ${member.name}`}
                  busy={busy}
                />
                <ConfirmedButton
                  intent="remove_unpaid"
                  extra={{ userId: member.userId }}
                  question={`Take ${member.name} off the list for ${eventTitle}?`}
                  label="Remove from the list"
                  hidden={` ${member.name}`}
                  busy={busy}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

/** The refund's confirmation: the member, the amount, the event, and what follows. */
export function refundQuestion(ticket: {
  name: string;
  amountCents: number;
  eventTitle: string;
  eventDate: string;
}): string {
  return `Refund ${formatDollars(ticket.amountCents)} to ${ticket.name} for ${ticket.eventTitle} (${formatEventDate(ticket.eventDate)})? Stripe returns the whole payment, ${ticket.name} is taken off the event's list and their place is freed, and they are emailed.`;
}

/** A notice's amount: dollars for the club's currency, else Stripe's own figure with its currency ("1 JPY"). */
function noticeAmount(amount: number, currency: string | null): string {
  return currency?.toLowerCase() === TICKET_CURRENCY
    ? formatDollars(amount)
    : `${amount} ${(currency ?? "").toUpperCase()}`.trim();
}

/** The notices from Stripe the site could not act on, each with its id to look up and a button to mark it dealt with. */
export function NoticesToLookAt({ notices, busy }: { notices: NoticeToLookAt[]; busy: boolean }) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-md border border-rust px-4 py-3"
      data-testid="stripe-notices"
    >
      <p>{TICKET_MESSAGES.unmatched(notices.length)}</p>
      <ul className="flex flex-col gap-2">
        {notices.map((notice) => (
          <li key={notice.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="grow text-sm">
              <code className="break-all">{notice.id}</code>
              {` · ${notice.type} · ${notice.outcome === "mismatch" ? "does not agree with its purchase" : "names no purchase"}`}
              {notice.amountCents !== null ? ` · ${noticeAmount(notice.amountCents, notice.currency)}` : null}
              {notice.sessionId ? ` · ${notice.sessionId}` : null} · <When at={notice.receivedAt} />
            </span>
            <Form method="post">
              <input type="hidden" name="intent" value="notice_dealt_with" />
              <input type="hidden" name="noticeId" value={notice.id} />
              <button type="submit" className="btn btn-secondary" disabled={busy}>
                Mark dealt with<span className="sr-only">{` ${notice.id}`}</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
