/**
 * Money and the merchant's built-in price list. The price list the site sells from is the club's
 * own (`features/club-facts/merchant/`), which managers change in the browser; the list here is
 * only its starting data, and the old site's list that its imported orders are priced with
 * (docs/product.md#merchant-price-list). Prices are kept in cents so totals are exact; format
 * them with `formatDollars`.
 */
export const BUILT_IN_MERCHANT_ITEMS = [
  { key: "meat", name: "Meat", priceCents: 300, unit: "piece" },
  { key: "bandages", name: "10 Bandages", priceCents: 2250, unit: "pack" },
  { key: "fabric", name: "Fabric", priceCents: 1300, unit: "bolt" },
  { key: "coal", name: "Coal", priceCents: 500, unit: "bag" },
  { key: "bullets", name: "20 Bullets", priceCents: 775, unit: "pack" },
  { key: "raw_glass", name: "Raw Glass", priceCents: 200, unit: "bag" },
  { key: "iron_ore", name: "Iron Ore", priceCents: 250, unit: "piece" },
  { key: "iron_ingots", name: "Iron Ingots", priceCents: 800, unit: "piece" },
  { key: "lead", name: "Lead", priceCents: 300, unit: "piece" },
  { key: "seeds", name: "Seeds", priceCents: 300, unit: "packet" },
  { key: "vials", name: "20 Vials", priceCents: 4500, unit: "pack" },
  { key: "nails", name: "50 Nails", priceCents: 4500, unit: "pack" },
  { key: "salt", name: "Salt", priceCents: 300, unit: "bag" },
  { key: "spring_spacers", name: "5 Spring Spacers", priceCents: 2000, unit: "crate" },
  { key: "springs", name: "5 Springs", priceCents: 5600, unit: "crate" },
  { key: "cylinders", name: "5 Cylinders", priceCents: 9800, unit: "crate" },
  { key: "hand_grips", name: "5 Hand Grips", priceCents: 2800, unit: "crate" },
  { key: "wood_stocks", name: "5 Wood Stocks", priceCents: 5600, unit: "crate" },
] as const;

export type BuiltInMerchantItem = (typeof BUILT_IN_MERCHANT_ITEMS)[number];
export type BuiltInMerchantItemKey = BuiltInMerchantItem["key"];

export const BUILT_IN_CURRENCY_NAME = "Hopewell Dollars";

const byKey = new Map<string, BuiltInMerchantItem>(BUILT_IN_MERCHANT_ITEMS.map((item) => [item.key, item]));

/** What `items` are called and cost on the built-in list, kept with an order as the member saw them. */
export function builtInPricedItems(
  items: Record<string, number>,
): Record<string, { name: string; unit: string; priceCents: number }> {
  return Object.fromEntries(
    Object.keys(items).map((key) => {
      const item = byKey.get(key);
      if (!item) throw new Error(`Unknown merchant item: ${key}`);
      return [key, { name: item.name, unit: item.unit, priceCents: item.priceCents }];
    }),
  );
}

/** An order's total in cents on the built-in list: the sum of price times quantity. Unknown keys are an error. */
export function builtInTotalCents(items: Record<string, number>): number {
  let total = 0;
  for (const [key, quantity] of Object.entries(items)) {
    const item = byKey.get(key);
    if (!item) throw new Error(`Unknown merchant item: ${key}`);
    total += item.priceCents * quantity;
  }
  return total;
}

/** A stored order total (the `total_price` column holds dollars as a decimal, read as text) in cents. */
export function storedTotalCents(totalPrice: string | number): number {
  return Math.round(Number(totalPrice) * 100);
}

const WHOLE_DOLLARS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 2250 -> "$22.50", 840600 -> "$8,406.00": the same on the server and in any browser. */
export function formatDollars(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}$${WHOLE_DOLLARS.format(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
}
