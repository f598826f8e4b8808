import type http from "node:http";
import { describe, expect, it } from "vitest";
import { isSameOrigin } from "~/web/middleware.server";
import { requestOrigin } from "../../http/pipeline/request-url";

function incoming(headers: Record<string, string>): http.IncomingMessage {
  return {
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    socket: {},
  } as unknown as http.IncomingMessage;
}

describe("the scheme and host a request is taken to have", () => {
  const proxied = incoming({
    Host: "127.0.0.1:3000",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "hopewell.example",
  });

  it("come from the proxy's headers only behind a trusted proxy", () => {
    expect(requestOrigin(proxied, { trustProxy: true })).toEqual({ protocol: "https:", host: "hopewell.example" });
    expect(requestOrigin(proxied, { trustProxy: false })).toEqual({ protocol: "http:", host: "127.0.0.1:3000" });
  });

  it("take the value the proxy appended, and ignore values that are not a scheme or a host", () => {
    const chained = incoming({
      Host: "app:3000",
      "X-Forwarded-Proto": "http, https",
      "X-Forwarded-Host": "evil.example, hopewell.example:8443",
    });
    expect(requestOrigin(chained, { trustProxy: true })).toEqual({ protocol: "https:", host: "hopewell.example:8443" });
    const odd = incoming({
      Host: "app:3000",
      "X-Forwarded-Proto": "gopher",
      "X-Forwarded-Host": "evil.example/path?x",
    });
    expect(requestOrigin(odd, { trustProxy: true })).toEqual({ protocol: "http:", host: "app:3000" });
  });
});

describe("the Origin check on state-changing requests", () => {
  const post = (url: string, origin: string) => new Request(url, { method: "POST", headers: { Origin: origin } });

  it("compares the scheme as well as the host", () => {
    expect(isSameOrigin(post("http://127.0.0.1:3000/auth", "http://127.0.0.1:3000"))).toBe(true);
    expect(isSameOrigin(post("http://127.0.0.1:3000/auth", "https://127.0.0.1:3000"))).toBe(false);
    expect(isSameOrigin(post("https://hopewell.example/auth", "http://hopewell.example"))).toBe(false);
    expect(isSameOrigin(post("https://hopewell.example/auth", "https://hopewell.example"))).toBe(true);
    expect(isSameOrigin(post("https://hopewell.example/auth", "https://evil.example"))).toBe(false);
  });
});
