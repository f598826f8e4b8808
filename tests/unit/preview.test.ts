import { describe, expect, it } from "vitest";
import { previewOf } from "~/lib/preview";

describe("previewOf", () => {
  it("keeps a text that fits whole, without an ellipsis", () => {
    expect(previewOf("Dear Ada, the mine is flooded.", 30)).toBe("Dear Ada, the mine is flooded.");
    expect(previewOf("", 10)).toBe("");
  });

  it("cuts a longer text at the last space and says there is more", () => {
    expect(previewOf("Send fabric for a mourning dress", 20)).toBe("Send fabric for a…");
    // A word that ends exactly at the limit is kept whole.
    expect(previewOf("Send fabric for a mourning dress", 26)).toBe("Send fabric for a mourning…");
  });

  it("does not end on a space or a line break before the ellipsis", () => {
    expect(previewOf("The lantern went out.\n\nThen the singing began", 24)).toBe("The lantern went out.…");
  });

  it("cuts one long word at the limit", () => {
    expect(previewOf("Aaaaaaaaaaaaaaaaaaaaaaaaa", 10)).toBe("Aaaaaaaaaa…");
  });
});
