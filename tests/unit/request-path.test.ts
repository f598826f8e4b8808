import { describe, expect, it } from "vitest";
import { requestPath, requestUrl } from "../../http/pipeline/request-url";

const ORIGINS = [
  { protocol: "http:", host: "127.0.0.1:3000" },
  { protocol: "https:", host: "hopewell.example" },
  { protocol: "http:", host: "[" },
  { protocol: "http:", host: "hopewell.example:99999" },
  { protocol: "http:", host: "evil.example/x" },
  { protocol: "http:", host: "" },
];

const TARGETS = [
  "/",
  "/events",
  "/view-letters?q=lantern&page=2",
  "/a b",
  "/%2F%2Fevil.example",
  "/events#x",
  "//evil.example/x",
  "/\\evil.example/x",
  "/\t/evil.example/x",
  "/\n\\evil.example",
  "/ok\t/still-ok",
  "http://127.0.0.1:3000/events?x=1",
  "https://hopewell.example/profile",
  "http://evil.example/x",
  "http://user:pass@127.0.0.1:3000/x",
  "*",
  "events",
  "",
  undefined,
];

/** What the address check answered before plain paths skipped the URL parser: the path kept as sent, or the parsed one for an absolute form. */
function parsedPath(target: string | undefined, origin: { protocol: string; host: string }) {
  const url = requestUrl(target, origin);
  if (!url) return undefined;
  return target!.startsWith("/") ? target : url.pathname + url.search;
}

describe("the path a request is handed to the app with", () => {
  it.each(
    ORIGINS.flatMap((origin) =>
      TARGETS.map((target) => [JSON.stringify(target), `${origin.protocol}//${origin.host}`, target, origin] as const),
    ),
  )("%s from %s is what parsing the address gives", (_name, _origin, target, origin) => {
    expect(requestPath(target, origin)).toBe(parsedPath(target, origin));
  });

  it("refuses paths that name another host, and hosts no URL can hold", () => {
    const site = { protocol: "http:", host: "127.0.0.1:3000" };
    for (const target of ["//evil.example/x", "/\\evil.example/x", "/\t/evil.example/x", "http://evil.example/x"])
      expect(requestPath(target, site), target).toBeUndefined();
    expect(requestPath("/events", { protocol: "http:", host: "[" })).toBeUndefined();
    expect(requestPath("/events?x=1", site)).toBe("/events?x=1");
    expect(requestPath("http://127.0.0.1:3000/events?x=1", site)).toBe("/events?x=1");
  });
});
