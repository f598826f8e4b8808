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
});
