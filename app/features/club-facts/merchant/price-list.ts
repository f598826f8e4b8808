/*
 * The merchant's price list as members meet it, shared by the server and the pages (no Zod, no
 * database): what is sold at an event, what an order costs and what it keeps of the list.
 */
import type { ClubMerchant } from "./merchant.facts";
import type { PricedItems } from "~/platform/db/schema";

/** An event an item may be limited to, as the order form and the editor name it. */
export type SaleEvent = { id: string; title: string; date: string };

/** An item on the order form: `events` null when it is sold at every event, else the events it is sold at. */
export type OfferedItem = {
  key: string;
  name: string;
  unit: string;
  priceCents: number;
  events: SaleEvent[] | null;
};

/** Whether an item (its list of events, null for every one) is sold at `eventId`. */
export function soldAt(item: { events: readonly (string | SaleEvent)[] | null }, eventId: string): boolean {
  return (
    item.events === null || item.events.some((event) => (typeof event === "string" ? event : event.id) === eventId)
  );
}

/**
 * What the order form offers for the events still to come: the items not retired, in the list's
 * order, each limited one with those of its events that are still to come (one whose events are
 * all over is not offered).
 */
export function offeredItems(list: ClubMerchant, upcoming: SaleEvent[]): OfferedItem[] {
  const byId = new Map(upcoming.map((event) => [event.id, event]));
  return list.items.flatMap(({ key, name, unit, priceCents, retired, events }): OfferedItem[] => {
    if (retired) return [];
    if (events === null) return [{ key, name, unit, priceCents, events: null }];
    const open = events.flatMap((id) => byId.get(id) ?? []);
    return open.length > 0 ? [{ key, name, unit, priceCents, events: open }] : [];
  });
}

/** Why an item of an order cannot be sold: not on the list, retired, or not sold at the order's event. */
export type OrderRefusal = { key: string; reason: "unknown" | "retired" | "not-at-event"; name: string };

/**
 * An order priced from the club's list as it is now: each item's name, unit and price as the
 * member is shown them (kept with the order), and the total; or the first item it cannot have.
 */
export function priceOrder(
  list: ClubMerchant,
  items: Record<string, number>,
  eventId: string,
): { ok: true; pricedItems: PricedItems; totalCents: number } | ({ ok: false } & OrderRefusal) {
  const byKey = new Map(list.items.map((item) => [item.key, item]));
  const pricedItems: PricedItems = {};
  let totalCents = 0;
  for (const [key, quantity] of Object.entries(items)) {
    const item = byKey.get(key);
    if (!item) return { ok: false, key, reason: "unknown", name: key };
    if (item.retired) return { ok: false, key, reason: "retired", name: item.name };
    if (!soldAt(item, eventId)) return { ok: false, key, reason: "not-at-event", name: item.name };
    pricedItems[key] = { name: item.name, unit: item.unit, priceCents: item.priceCents };
    totalCents += item.priceCents * quantity;
  }
  return { ok: true, pricedItems, totalCents };
}

/** A price as a manager types it: 775 -> "7.75". */
export function dollarsText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** A typed price in cents ("7.75", "$7.75", "1,250", "3" -> 775, 775, 125000, 300), or null when it is not one. */
export function parseDollars(typed: string): number | null {
  const match = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(typed.trim());
  if (!match) return null;
  const cents = Number(match[1]!.replaceAll(",", "")) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** An order's goods as lines to show ("2 × 20 Bullets"), as a long list of orders sends them to the page. */
export type OrderGoods = string[];

/** One line of an order's goods. */
export const goodsLine = (quantity: number, name: string) => `${quantity} × ${name}`;

/**
 * What an order's goods were called, made on the server for a page of many orders: the page is
 * sent the lines to show (a string each, which the page's data carries in a few bytes) rather than
 * each order's quantities and price list.
 */
export function orderGoods(items: Record<string, number>, pricedItems: PricedItems): OrderGoods {
  return Object.entries(items).map(([key, quantity]) => goodsLine(quantity, pricedItems[key]?.name ?? key));
}
