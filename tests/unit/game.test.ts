import { describe, expect, it } from "vitest";
import { BUILT_IN_MERCHANT_ITEMS, formatDollars, builtInTotalCents } from "~/game";

describe("merchant price list", () => {
  it("has the price list's eighteen items with prices and units", () => {
    expect(BUILT_IN_MERCHANT_ITEMS).toHaveLength(18);
    const bandages = BUILT_IN_MERCHANT_ITEMS.find((item) => item.name === "10 Bandages");
    expect(bandages).toMatchObject({ priceCents: 2250, unit: "pack" });
    const cylinders = BUILT_IN_MERCHANT_ITEMS.find((item) => item.name === "5 Cylinders");
    expect(cylinders).toMatchObject({ priceCents: 9800, unit: "crate" });
    expect(new Set(BUILT_IN_MERCHANT_ITEMS.map((item) => item.key)).size).toBe(18);
  });

  it("totals price times quantity exactly", () => {
    expect(builtInTotalCents({ bullets: 3, iron_ore: 1, bandages: 2 })).toBe(3 * 775 + 250 + 2 * 2250);
    expect(builtInTotalCents({})).toBe(0);
    expect(() => builtInTotalCents({ whiskey: 1 })).toThrow(/Unknown merchant item/);
  });

  it("formats cents as dollars with two decimals and thousands separated", () => {
    expect(formatDollars(2250)).toBe("$22.50");
    expect(formatDollars(5)).toBe("$0.05");
    expect(formatDollars(10000)).toBe("$100.00");
    expect(formatDollars(99999)).toBe("$999.99");
    expect(formatDollars(100000)).toBe("$1,000.00");
    expect(formatDollars(840600)).toBe("$8,406.00");
    expect(formatDollars(123456789)).toBe("$1,234,567.89");
    expect(formatDollars(-840600)).toBe("-$8,406.00");
  });
});
