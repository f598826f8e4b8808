import { formatDollars } from "~/game/merchant";
import type { PricedItems } from "~/platform/db/schema";
import { goodsLine, type OrderGoods } from "./price-list";

/** An order as it was written: its quantities, what each item was called and cost then, and its total. */
export type WrittenOrder = { items: Record<string, number>; pricedItems: PricedItems; totalCents: number };

/**
 * An order's goods, read from what the order keeps of the price list when it was placed
 * (`pricedItems`), never from today's list: a later rename, price rise or retirement leaves it
 * reading as written. `lines` is the short form ("2 × 20 Bullets", then the total) for staff's
 * lists; `priced` a table with each item's price and unit as they were and each line's price, for the
 * member's own record. Without
 * `currency` the total is left out (the event-day sheet totals each attendee instead).
 */
export function OrderItems({
  order,
  currency,
  detail = "lines",
  className,
}: {
  order: WrittenOrder | { goods: OrderGoods; totalCents: number };
  currency?: string;
  detail?: "lines" | "priced";
  className?: string;
}) {
  if ("goods" in order)
    return (
      <GoodsAndTotal goods={order.goods} totalCents={order.totalCents} currency={currency} className={className} />
    );
  const lines = Object.entries(order.items).map(([key, quantity]) => {
    const priced = order.pricedItems[key];
    return {
      key,
      quantity,
      name: priced?.name ?? key,
      each: priced ? `${formatDollars(priced.priceCents)} a ${priced.unit}` : "",
      lineCents: priced ? priced.priceCents * quantity : null,
    };
  });
  if (detail === "priced") {
    return (
      <table className={`w-full border-collapse text-left ${className ?? ""}`}>
        <caption className="sr-only">What you ordered</caption>
        <thead>
          <tr className="border-b border-timber text-dust">
            <th scope="col" className="py-2">
              Item
            </th>
            <th scope="col" className="py-2 text-right">
              Quantity
            </th>
            <th scope="col" className="py-2 text-right">
              Each
            </th>
            <th scope="col" className="py-2 text-right">
              Price
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.key} className="border-b border-timber/40">
              <th scope="row" className="py-2 pr-2 font-normal">
                {line.name}
              </th>
              <td className="py-2 pr-2 text-right">{line.quantity}</td>
              <td className="py-2 pr-2 text-right">{line.each}</td>
              <td className="py-2 text-right whitespace-nowrap">
                {line.lineCents === null ? "" : formatDollars(line.lineCents)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3} className="py-2 text-right">
              Total
            </th>
            <td className="py-2 text-right font-bold whitespace-nowrap" data-testid="order-items-total">
              {formatDollars(order.totalCents)}
            </td>
          </tr>
        </tfoot>
      </table>
    );
  }
  return (
    <GoodsAndTotal
      goods={lines.map((line) => goodsLine(line.quantity, line.name))}
      totalCents={order.totalCents}
      currency={currency}
      className={className}
    />
  );
}

/** The short form: a line an item, then the total in `currency` (none without it). */
function GoodsAndTotal({
  goods,
  totalCents,
  currency,
  className,
}: {
  goods: OrderGoods;
  totalCents: number;
  currency?: string;
  className?: string;
}) {
  const lines = (
    <>
      <ul>
        {goods.map((line, index) => (
          // An order's lines are never reordered while shown: the place is the key.
          <li key={index}>{line}</li>
        ))}
      </ul>
      {currency === undefined ? null : (
        <p className="mt-2 font-bold tabular-nums" data-testid="order-items-total">
          {`Total: ${formatDollars(totalCents)} ${currency}`}
        </p>
      )}
    </>
  );
  // A wrapper only where a caller styles the whole: a long list of orders draws one element fewer each.
  return className ? <div className={className}>{lines}</div> : lines;
}
