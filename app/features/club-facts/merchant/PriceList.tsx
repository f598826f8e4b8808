import type { ReactNode } from "react";
import { formatDollars } from "~/game/merchant";
import { formatEventDate } from "~/lib/dates";
import type { OfferedItem } from "./price-list";

/** "First Frost (Friday, November 20, 2099)", as the event choice names an event. */
export const saleEventName = (event: { title: string; date: string }) =>
  `${event.title} (${formatEventDate(event.date)})`;

/**
 * The merchant's list as members see it on the order form: each item with its price per unit,
 * an item sold at some events only saying which; `quantity` draws the order form's column of
 * quantities (the managers' preview has none).
 */
export function PriceList({ items, quantity }: { items: OfferedItem[]; quantity?: (item: OfferedItem) => ReactNode }) {
  return (
    <table className="w-full border-collapse text-left">
      <caption className="sr-only">The merchant&apos;s price list</caption>
      <thead>
        <tr className="border-b border-timber text-dust">
          <th scope="col" className="py-2">
            Item
          </th>
          <th scope="col" className="py-2">
            Price
          </th>
          {quantity ? (
            <th scope="col" className="py-2">
              Quantity
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.key} className="border-b border-timber/40">
            <th scope="row" className="py-2 pr-2 font-normal">
              {item.name}
              {item.events ? (
                <span className="block text-sm text-brass">{`Only at ${item.events.map(saleEventName).join(", ")}`}</span>
              ) : null}
            </th>
            <td className="py-2 pr-2 whitespace-nowrap text-dust">
              {formatDollars(item.priceCents)} / {item.unit}
            </td>
            {quantity ? <td className="py-2">{quantity(item)}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
