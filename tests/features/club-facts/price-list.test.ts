import { describe, expect, it } from "vitest";
import { startingMerchant } from "~/features/club-facts/merchant/merchant.facts";
import { dollarsText, offeredItems, parseDollars, priceOrder } from "~/features/club-facts/merchant/price-list";

const FAIR = { id: "00000000-0000-4000-8000-0000000000f1", title: "Fair", date: "2099-07-01" };
const QUIET = { id: "00000000-0000-4000-8000-0000000000f2", title: "Quiet", date: "2099-08-01" };
const GONE = "00000000-0000-4000-8000-0000000000f3";

/** The starting list with salt retired, coal sold at the fair only, and nails at an event gone by only. */
function list() {
  const merchant = startingMerchant();
  return {
    ...merchant,
    items: merchant.items.map((item) =>
      item.key === "salt"
        ? { ...item, retired: true }
        : item.key === "coal"
          ? { ...item, events: [FAIR.id] }
          : item.key === "nails"
            ? { ...item, events: [GONE] }
            : item,
    ),
  };
}

describe("the merchant's price list", () => {
  it("reads a price typed in dollars, and nothing else", () => {
    expect(parseDollars("7.75")).toBe(775);
    expect(parseDollars(" $7.5 ")).toBe(750);
    expect(parseDollars("3")).toBe(300);
    expect(parseDollars("1,250.00")).toBe(125_000);
    expect(parseDollars("0")).toBe(0);
    for (const typed of ["abc", "-3", "7.755", "", "1,25", "7.", ".5", "1e3", "7,75"])
      expect(parseDollars(typed)).toBeNull();
    expect(dollarsText(775)).toBe("7.75");
    expect(dollarsText(300)).toBe("3.00");
    expect(dollarsText(5)).toBe("0.05");
  });

  it("offers what is not retired, each limited item with its events still to come", () => {
    const offered = offeredItems(list(), [FAIR, QUIET]);
    expect(offered.map((item) => item.key)).not.toContain("salt");
    expect(offered.map((item) => item.key)).not.toContain("nails");
    expect(offered.find((item) => item.key === "coal")?.events).toEqual([FAIR]);
    expect(offered.find((item) => item.key === "meat")?.events).toBeNull();
    expect(offered).toHaveLength(16);
  });

  it("prices an order from the list, keeping what each item was called and cost, or names the item it cannot have", () => {
    expect(priceOrder(list(), { bullets: 2, coal: 1 }, FAIR.id)).toEqual({
      ok: true,
      totalCents: 2 * 775 + 500,
      pricedItems: {
        bullets: { name: "20 Bullets", unit: "pack", priceCents: 775 },
        coal: { name: "Coal", unit: "bag", priceCents: 500 },
      },
    });
    expect(priceOrder(list(), { coal: 1 }, QUIET.id)).toEqual({
      ok: false,
      key: "coal",
      reason: "not-at-event",
      name: "Coal",
    });
    expect(priceOrder(list(), { meat: 1, salt: 1 }, FAIR.id)).toMatchObject({
      ok: false,
      reason: "retired",
      name: "Salt",
    });
    expect(priceOrder(list(), { whiskey: 1 }, FAIR.id)).toMatchObject({ ok: false, reason: "unknown" });
  });
});
