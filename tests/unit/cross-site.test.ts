import { describe, expect, it } from "vitest";
import { isCrossSitePost } from "~/web/cross-site.server";

const post = (origin: string | null, url = "https://hopewell.example/auth", method = "POST") =>
  new Request(url, { method, headers: origin === null ? {} : { Origin: origin } });

describe("a cross-site post", () => {
  it("is a change asked from another origin", () => {
    expect(isCrossSitePost(post("https://elsewhere.example"))).toBe(true);
    expect(isCrossSitePost(post("http://hopewell.example"))).toBe(true);
    expect(isCrossSitePost(post("https://hopewell.example:8443"))).toBe(true);
    expect(isCrossSitePost(post("null"))).toBe(true);
    expect(isCrossSitePost(post("not a url"))).toBe(true);
    expect(isCrossSitePost(post("https://elsewhere.example", undefined, "DELETE"))).toBe(true);
  });

  it("is not a post from the site itself, one without an Origin, or a read", () => {
    expect(isCrossSitePost(post("https://hopewell.example"))).toBe(false);
    expect(isCrossSitePost(post(null))).toBe(false);
    expect(isCrossSitePost(post("https://elsewhere.example", undefined, "GET"))).toBe(false);
  });
});
