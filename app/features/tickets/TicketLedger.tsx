import { formatDollars } from "~/game/merchant";
import { formatClubTime } from "~/lib/dates";
import type { TicketLedger } from "./ledger.server";

const STATUS_WORDS = { paid: "Paid", refunding: "Being refunded", refunded: "Refunded", held: "At checkout", released: "Released" } as const;

/** An event's tickets for the managers: who paid, how much and when, refunds, the total taken and the places left. */
export function TicketLedgerSection({ ledger, eventTitle }: { ledger: TicketLedger; eventTitle: string }) {
  const summary = [
    ledger.priceCents !== null ? `Tickets ${formatDollars(ledger.priceCents)}` : "No longer sold on the site",
    `${formatDollars(ledger.takenCents)} taken`,
    ledger.placesLeft === null ? "no limit on places" : `${ledger.placesLeft} of ${ledger.places} places left`,
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
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left">
            <thead>
              <tr className="border-b border-timber text-dust">
                <th scope="col" className="py-2 pr-3">Name</th>
                <th scope="col" className="py-2 pr-3">Amount</th>
                <th scope="col" className="py-2 pr-3">Paid</th>
                <th scope="col" className="py-2">Status</th>
              </tr>
            </thead>
            <tbody>
              {ledger.rows.map((row) => (
                <tr key={row.purchaseId} className="border-b border-timber/40">
                  <td className="py-2 pr-3">{row.name}</td>
                  <td className="py-2 pr-3">{row.amountCents === null ? "—" : formatDollars(row.amountCents)}</td>
                  <td className="py-2 pr-3">{row.paidAt ? <time dateTime={new Date(row.paidAt).toISOString()}>{formatClubTime(row.paidAt)}</time> : "—"}</td>
                  <td className="py-2">
                    {STATUS_WORDS[row.status]}
                    {row.refundedAt ? (
                      <>
                        {" "}
                        <time dateTime={new Date(row.refundedAt).toISOString()}>{formatClubTime(row.refundedAt)}</time>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
