import { BUILT_IN_MERCHANT_ITEMS, builtInTotalCents, type BuiltInMerchantItemKey } from "~/game/merchant";
import { looseName, shown, Skip } from "./values.server";

/** An item's name without its pack count, loosely: "10 Bandages" -> "bandages", "spring_spacers" -> "springspacers". */
function looseItem(value: string): string {
  return looseName(value.trim().replace(/^\d+\s*[x_\-. ]?\s*/i, ""));
}

const BY_LOOSE = new Map<string, BuiltInMerchantItemKey>();
for (const item of BUILT_IN_MERCHANT_ITEMS) {
  BY_LOOSE.set(looseItem(item.name), item.key);
  BY_LOOSE.set(looseItem(item.key), item.key);
}

/** The price-list item an old order's key names (ignoring case, punctuation and a leading pack count), or null. */
export function matchMerchantItem(key: string): BuiltInMerchantItemKey | null {
  return BY_LOOSE.get(looseItem(key)) ?? null;
}

/**
 * An old order's items as this site keeps them: price-list keys to whole quantities, two
 * spellings of one item added together, zero quantities left out. An item not on the price
 * list, or a quantity that is not a whole number, skips the order.
 */
export function orderItems(items: unknown): Record<BuiltInMerchantItemKey, number> {
  if (items === null || typeof items !== "object" || Array.isArray(items)) throw new Skip("items is not a JSON object");
  const out: Partial<Record<BuiltInMerchantItemKey, number>> = {};
  for (const [raw, value] of Object.entries(items as Record<string, unknown>)) {
    const key = matchMerchantItem(raw);
    if (!key) throw new Skip("unknown merchant item", shown(raw));
    const quantity = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof quantity !== "number" || !Number.isSafeInteger(quantity) || quantity < 0)
      throw new Skip("bad quantity for", shown(raw));
    if (quantity > 0) out[key] = (out[key] ?? 0) + quantity;
  }
  if (Object.keys(out).length === 0) throw new Skip("no items ordered");
  return out as Record<BuiltInMerchantItemKey, number>;
}

/** "12.5", "$12.50" -> 1250 cents, rounded half up to the cent; null when it is not an amount. */
export function parseAmountCents(value: string | null): number | null {
  if (value === null) return null;
  const match = /^\$?\s*(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return null;
  const fraction = (match[2] ?? "").padEnd(3, "0");
  const cents = Number(match[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return Number.isSafeInteger(cents) ? cents : null;
}

export function priceListTotalCents(items: Record<BuiltInMerchantItemKey, number>): number {
  return builtInTotalCents(items);
}
