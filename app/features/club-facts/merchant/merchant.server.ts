import { currentFacts } from "../club-facts.server";
import { offeredItems, type OfferedItem, type SaleEvent } from "./price-list";

/** What the currency is called now, for pages that show an order's total. */
export async function merchantCurrency(): Promise<string> {
  return (await currentFacts("merchant")).content.currency;
}

/** The price list as the order form shows it for the events still to come (`upcoming`). */
export async function priceListFor(upcoming: SaleEvent[]): Promise<{ currency: string; items: OfferedItem[] }> {
  const { content } = await currentFacts("merchant");
  return { currency: content.currency, items: offeredItems(content, upcoming) };
}
