import { describe, expect, it } from "vitest";
import { countOf, nounFor } from "~/lib/plural";

describe("countOf", () => {
  it("puts the noun in the form its number takes, with the thousands grouped", () => {
    expect(countOf(1, "entry", "entries")).toBe("1 entry");
    expect(countOf(11, "entry", "entries")).toBe("11 entries");
    expect(countOf(0, "entry", "entries")).toBe("0 entries");
    expect(countOf(1321, "letter")).toBe("1,321 letters");
    expect(countOf(1, "unsent message")).toBe("1 unsent message");
    expect(nounFor(2, "attempt")).toBe("attempts");
  });

  it("says what Intl says for every count, whole or not, small or large", () => {
    const plural = new Intl.PluralRules("en-US");
    const number = new Intl.NumberFormat("en-US");
    for (const n of [...Array.from({ length: 2201 }, (_, i) => i - 1100), 0.5, 1.5, -1.5, 1.25, 12345.5, 1e6]) {
      expect(countOf(n, "entry", "entries"), String(n)).toBe(
        `${number.format(n)} ${plural.select(n) === "one" ? "entry" : "entries"}`,
      );
    }
  });
});
