import { z } from "zod";
import { BUILT_IN_CURRENCY_NAME, BUILT_IN_MERCHANT_ITEMS } from "~/game/merchant";
import { isUuid } from "~/lib/ids";

/** The merchant's price list as the club keeps it (kind "merchant"). */

export const MERCHANT_ITEMS_MAX = 200;

/** The dearest price an item may have, in cents ($100,000.00). */
export const PRICE_MAX_CENTS = 10_000_000;

export const MERCHANT_MESSAGES = {
  name: "Name the item, up to 80 characters.",
  unit: "Say what one is sold as (a piece, a bag, a crate), up to 30 characters.",
  price: "Give a price from 0.01 to 100,000.00.",
  currency: "Name the currency, up to 60 characters.",
  events: "Tick the events it is sold at, or choose “Every event”.",
  tooMany: `The price list holds at most ${MERCHANT_ITEMS_MAX} items.`,
} as const;

/**
 * One item. Its key names it in every order (`merchant_orders.items`) and never changes, so an
 * order written before a rename still finds what it ordered. `events` is null when it is sold at
 * every event, else the events it is sold at; a retired item is sold at none and stays on the
 * orders that have it.
 */
export const MerchantItemSchema = z.object({
  key: z.string().regex(/^[a-z0-9_]{1,60}$/),
  name: z.string().trim().min(1, MERCHANT_MESSAGES.name).max(80, MERCHANT_MESSAGES.name),
  unit: z.string().trim().min(1, MERCHANT_MESSAGES.unit).max(30, MERCHANT_MESSAGES.unit),
  priceCents: z.number().int().min(1, MERCHANT_MESSAGES.price).max(PRICE_MAX_CENTS, MERCHANT_MESSAGES.price),
  retired: z.boolean(),
  // Any event's id (an imported event's too), not only the kind the site makes.
  events: z.array(z.string().refine(isUuid)).nullable(),
});
export type ClubMerchantItem = z.infer<typeof MerchantItemSchema>;

export const MerchantSchema = z.object({
  currency: z.string().trim().min(1, MERCHANT_MESSAGES.currency).max(60, MERCHANT_MESSAGES.currency),
  items: z.array(MerchantItemSchema).max(MERCHANT_ITEMS_MAX, MERCHANT_MESSAGES.tooMany),
});
export type ClubMerchant = z.infer<typeof MerchantSchema>;

/** Today's built-in price list, every item sold at every event. */
export function startingMerchant(): ClubMerchant {
  return {
    currency: BUILT_IN_CURRENCY_NAME,
    items: BUILT_IN_MERCHANT_ITEMS.map(({ key, name, unit, priceCents }) => ({
      key,
      name,
      unit,
      priceCents,
      retired: false,
      events: null,
    })),
  };
}
