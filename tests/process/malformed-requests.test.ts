import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unpackMigratedDatabase } from "../helpers/db";
import { startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

/**
 * Requests no browser sends, written byte for byte on a bare socket: request lines, hosts and
 * paths that no URL parser reads, and a small seeded fuzz of them. One anonymous request must
 * never stop the process: each gets an answer of its own (a 4xx, at worst a 500), and the next
 * visitor is served as usual.
 */

/** What came back for one request: the status of the first response, if one came before the socket closed. */
type Exchange = { status: number | undefined; head: string };

/**
 * Sends `bytes` and reads until the server closes the connection (each request asks for
 * `Connection: close`) or `timeoutMs` passes, then returns the first response's status line.
 */
function exchange(port: number, bytes: Buffer | string, timeoutMs = 5_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const head = received.subarray(0, Math.max(0, received.indexOf("\r\n\r\n"))).toString("latin1");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received.toString("latin1"))?.[1];
      resolve({ status: status === undefined ? undefined : Number(status), head });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on(
      "data",
      (data) => (received = Buffer.concat([received, typeof data === "string" ? Buffer.from(data, "latin1") : data])),
    );
    // A reset after the answer (the server closing with bytes unread) still leaves the answer read.
    socket.on("error", () => {});
    socket.on("close", finish);
    socket.write(bytes);
  });
}

function request(target: string, headers: string[] = ["Host: 127.0.0.1"], method = "GET"): string {
  return [`${method} ${target} HTTP/1.1`, ...headers, "Connection: close", "", ""].join("\r\n");
}

/** The requests an attacker's scanner tries first. */
const HAND_PICKED: [name: string, bytes: Buffer | string][] = [
  ["a path of two slashes and an escaped slash", request("//%2F")],
  ["a path that reads as another host", request("//evil.example/profile")],
  ["a backslash after the first slash", request("/\\evil.example")],
  ["a backslash and an escaped slash", request("/\\%2F")],
  ["a Host of one bracket", request("/", ["Host: ["])],
  ["a Host with a space", request("/", ["Host: a b"])],
  ["a Host with a path", request("/", ["Host: a/b"])],
  ["a Host with credentials", request("/", ["Host: user@evil.example"])],
  ["a Host with a bad port", request("/", ["Host: 127.0.0.1:99999"])],
  ["a Host of only a port", request("/", ["Host: :80"])],
  ["an empty Host", request("/", ["Host: "])],
  ["no Host in HTTP/1.1", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n"],
  ["two Hosts", request("/", ["Host: 127.0.0.1", "Host: ["])],
  ["an absolute-form URL of this host", request("http://127.0.0.1/events")],
  ["an absolute-form URL of another host", request("http://evil.example/profile")],
  ["an absolute-form URL with no host", request("http://[/")],
  ["an absolute-form URL with a bad port", request("http://127.0.0.1:99999/")],
  ["an absolute-form URL of another scheme", request("javascript:alert(1)")],
  ["an absolute-form URL of a file", request("file:///etc/passwd")],
  ["an asterisk", request("*", undefined, "OPTIONS")],
  ["a path without its slash", request("events")],
  ["a lone percent", request("/%")],
  ["a percent and one digit", request("/events/%4")],
  ["a percent and no digits", request("/%zz")],
  ["an escape that is no UTF-8", request("/%C0%AF%FF")],
  ["an escaped NUL", request("/%00")],
  ["an escaped NUL in the query", request("/events?q=%00")],
  ["a query of percents", request("/auth?redirectTo=%E0%A4%A")],
  ["a route parameter that does not decode", request("/letters/%E0%A4%A")],
  ["a NUL byte in the path", request("/a\u0000b")],
  ["a NUL byte in a header", request("/", ["Host: 127.0.0.1", "X-Test: a\u0000b"])],
  ["raw UTF-8 in the path", Buffer.from(request("/日本"), "utf8")],
  ["raw Latin-1 in the path", Buffer.from(request("/caf\u00e9"), "latin1")],
  ["an overlong path", request(`/${"a".repeat(20_000)}`)],
  ["an overlong path of escapes", request(`/${"%2F".repeat(3_000)}`)],
  ["many slashes", request("/".repeat(5_000))],
  ["a path of dot segments", request("/../../../../etc/passwd")],
  ["escaped dot segments", request("/%2e%2e/%2e%2e/etc/passwd")],
  ["a TRACE", request("/", undefined, "TRACE")],
  ["a method the server does not know", request("/", undefined, "BREW")],
  ["a CONNECT", "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n"],
  ["no protocol version", "GET /\r\n\r\n"],
  ["HTTP/9.9", "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"],
  ["a header without a colon", request("/", ["Host: 127.0.0.1", "Nonsense"])],
  [
    "a forwarded host that is no host",
    request("/", ["Host: 127.0.0.1", "X-Forwarded-Host: [", "X-Forwarded-Proto: gopher"]),
  ],
  [
    "a body to a malformed address",
    [
      `POST //%2F HTTP/1.1`,
      "Host: 127.0.0.1",
      "Content-Length: 5",
      "Content-Type: application/x-www-form-urlencoded",
      "Connection: close",
      "",
      "a=b&c",
    ].join("\r\n"),
  ],
  [
    "a chunked body to a malformed Host",
    [
      `POST /auth HTTP/1.1`,
      "Host: [",
      "Transfer-Encoding: chunked",
      "Connection: close",
      "",
      "3",
      "a=b",
      "0",
      "",
      "",
    ].join("\r\n"),
  ],
];

/** A seeded generator, so a failure names a request that can be sent again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Targets and hosts stitched from the pieces URL parsers stumble on. */
function fuzzed(count: number, seed = 1877): [string, string][] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const pieces = [
    "/",
    "//",
    "\\",
    "%",
    "%2F",
    "%5C",
    "%0",
    "%E6%97",
    "%%",
    "[",
    "]",
    "@",
    ":",
    "?",
    "#",
    "..",
    ".",
    "a",
    "events",
    "auth",
    "日",
    "\u00ff",
    " ",
    "%20",
    ";",
    "*",
    "http:",
    "//[",
    "::",
  ];
  const hosts = [
    "127.0.0.1",
    "[",
    "]",
    "[::1",
    "a b",
    "a:b:c",
    "a@b",
    "a/b",
    "a\\b",
    "%41",
    "[::1]:0",
    "x:",
    "日本.example",
    "a..b",
    "",
  ];
  const cases: [string, string][] = [];
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 6);
    let target = next() < 0.8 ? "/" : "";
    for (let j = 0; j < length; j++) target += pick(pieces);
    // Spaces would end the request line: they go in escaped, as in the pieces.
    target = target.replace(/ /g, "%20");
    const host = next() < 0.5 ? "127.0.0.1" : pick(hosts);
    cases.push([
      `fuzz ${i}: ${JSON.stringify(target)} at Host ${JSON.stringify(host)}`,
      request(target, [`Host: ${host}`], next() < 0.8 ? "GET" : "POST"),
    ]);
  }
  return cases;
}

describe("malformed requests to the production server", () => {
  let dataDir: string;
  let server: RunningProcess;
  let port: number;

  beforeAll(async () => {
    // Migrated already (PGlite's initdb costs seconds): this is about requests, not a first start.
    dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-malformed-")));
    ({ server, port } = await startBuiltServer({ DATA_DIR: dataDir, HOST: "127.0.0.1" }, 60_000));
  }, 90_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A visitor's ordinary request right after: the process is still there and serving. */
  async function stillServes(after: string) {
    const alive = server.child.exitCode === null && server.child.signalCode === null;
    expect(alive, `the server exited after ${after}:\n${server.output().slice(-3_000)}`).toBe(true);
    const normal = await exchange(port, request("/"));
    expect(normal.status, `no ordinary answer after ${after}:\n${server.output().slice(-3_000)}`).toBe(200);
  }

  it("answers each hand-picked request with an error of its own and keeps serving", async () => {
    for (const [name, bytes] of HAND_PICKED) {
      const answer = await exchange(port, bytes);
      // Node's parser closes some connections with 400 itself; anything the app answers is a 4xx or a 500.
      if (answer.status !== undefined) expect(answer.status, `${name}: ${answer.head}`).toBeGreaterThanOrEqual(200);
      if (answer.status !== undefined) expect(answer.status, `${name}: ${answer.head}`).toBeLessThan(600);
      await stillServes(name);
    }
  }, 120_000);

  it("refuses with 400, not a server error, what it cannot read as an address of this site", async () => {
    for (const target of [
      "//%2F",
      "//evil.example/profile",
      "/\\%2F",
      "http://[/",
      "http://evil.example/profile",
      "javascript:alert(1)",
      "events",
    ]) {
      const answer = await exchange(port, request(target));
      expect(answer.status, `${target}: ${answer.head}`).toBe(400);
    }
    for (const host of ["[", "a b", "a/b", "user@evil.example", "127.0.0.1:99999"]) {
      const answer = await exchange(port, request("/", [`Host: ${host}`]));
      expect(answer.status, `Host ${host}: ${answer.head}`).toBe(400);
    }
    // An absolute-form request of the site's own host is an ordinary one.
    expect((await exchange(port, request(`http://127.0.0.1:${port}/`, [`Host: 127.0.0.1:${port}`]))).status).toBe(200);
    await stillServes("the refusals");
  }, 60_000);

  it("survives a seeded fuzz of request targets and hosts", async () => {
    for (const [name, bytes] of fuzzed(150)) {
      const answer = await exchange(port, bytes);
      if (answer.status !== undefined) expect(answer.status, `${name}: ${answer.head}`).toBeLessThan(600);
      await stillServes(name);
    }
    expect(server.output()).not.toMatch(/Unhandled|uncaught/i);
  }, 180_000);
});
