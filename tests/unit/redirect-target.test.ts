import { describe, expect, it } from "vitest";
import { safeRedirectTarget } from "~/web/redirect-target";

describe("safeRedirectTarget", () => {
  it("percent-encodes what a Location header cannot carry, as UTF-8, and keeps the rest as it is", () => {
    expect(safeRedirectTarget("/日本")).toBe("/%E6%97%A5%E6%9C%AC");
    expect(safeRedirectTarget("/café?q=a b#x")).toBe("/caf%C3%A9?q=a%20b#x");
    expect(safeRedirectTarget("/events?tab=past&page=2")).toBe("/events?tab=past&page=2");
    expect(safeRedirectTarget("/a%2Fb")).toBe("/a%2Fb");
    expect(safeRedirectTarget("/\u{1F600}")).toBe("/%F0%9F%98%80");
  });

  it("gives the same answer for a target it already made, as it is checked again at the second step", () => {
    for (const value of ["/日本", "/café?q=a b", "/%E6%97%A5"]) {
      const once = safeRedirectTarget(value);
      expect(safeRedirectTarget(once)).toBe(once);
    }
  });

  it("refuses half of a UTF-16 pair, which names no character", () => {
    expect(safeRedirectTarget("/\uD800")).toBe("/");
    expect(safeRedirectTarget("/a\uDC00b", "")).toBe("");
  });

  it("still refuses other sites, control characters and the sign-in pages", () => {
    for (const value of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "/a\nb",
      "/auth/two-factor",
      "/logout",
      7,
    ]) {
      expect(safeRedirectTarget(value)).toBe("/");
    }
  });
});
