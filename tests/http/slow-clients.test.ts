import net from "node:net";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { config } from "~/platform/config.server";
import { createAppServer } from "../../http/app";
import { UPLOAD_MAX_BYTES } from "~/game/rules";
import {
  BODY_MIN_BYTES,
  BODY_WINDOW_MS,
  CONNECTIONS_PER_ADDRESS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
} from "../../http/pipeline/slow-clients";
import { withAppServer } from "../helpers/app-server";
import { withTestDatabase } from "../helpers/db";
import { captureLogs } from "../helpers/logs";

/**
 * Clients that send slowly or not at all, over bare sockets as an attacker's client does: each
 * must be cut off after its deadline while the site keeps answering everyone else.
 */
withTestDatabase();
const captured = captureLogs();
const app = withAppServer();
const sockets: net.Socket[] = [];
afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

type Slow = { socket: net.Socket; received: () => string; closedAfterMs: Promise<number> };

/** A client that sends `head`, then one byte of `drip` every `everyMs` for as long as the connection stays open. */
function slowClient(port: number, host: string, head: string, drip = "", everyMs = 2_000): Slow {
  const socket = net.connect(port, host);
  sockets.push(socket);
  const opened = performance.now();
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", () => {});
  socket.write(head);
  let at = 0;
  const timer = setInterval(() => {
    if (drip && !socket.destroyed) socket.write(drip[at++ % drip.length]!);
  }, everyMs);
  const closedAfterMs = new Promise<number>((resolve) =>
    socket.once("close", () => {
      clearInterval(timer);
      resolve(performance.now() - opened);
    }),
  );
  return { socket, received: () => received, closedAfterMs };
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe("slow clients", () => {
  it("leave the largest upload time to arrive whole from a poor mobile link, which the body rate lets through", async () => {
    const server = createAppServer(config(), { assetsDir: "public" });
    try {
      // 3 KB/s: a phone on one bar. The body rate cuts off only what is slower still.
      const rate = 3 * 1024;
      expect(rate).toBeGreaterThan(BODY_MIN_BYTES / (BODY_WINDOW_MS / 1000));
      expect(server.requestTimeout).toBeGreaterThan((UPLOAD_MAX_BYTES / rate) * 1000);
      expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    } finally {
      // Never listening, it is closed all the same: closing is what lets go of the database.
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("are closed after their deadlines (headers, body, idle keep-alive) while others are answered at once", async () => {
    const { url } = app();
    const port = Number(new URL(url).port);
    // Headers that never end: a byte every 2 s.
    const headerOnly = Array.from({ length: 40 }, () =>
      slowClient(port, "127.0.0.1", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", "abcdef"),
    );
    // A sign-in form whose 1,000-byte body comes a byte every 2 s: the action is reading it.
    const form = [
      "POST /auth HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      `Origin: ${url}`,
      "Content-Type: application/x-www-form-urlencoded",
      "Content-Length: 1000",
      "",
      "intent=signin&email=",
    ];
    const slowBodies = Array.from({ length: 10 }, () => slowClient(port, "127.0.0.1", form.join("\r\n"), "abcdef"));
    // A request answered on a kept-alive connection, which then says nothing more.
    const idle = slowClient(port, "127.0.0.1", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

    // Meanwhile everyone else is answered as usual.
    for (let i = 0; i < 3; i++) {
      const { result, ms } = await timed(() => fetch(`${url}/healthz`));
      expect(result.status).toBe(200);
      expect(ms).toBeLessThan(2_000);
      const page = await timed(async () => (await fetch(`${url}/rulebook`)).status);
      expect(page.result).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }

    const idleClosed = await idle.closedAfterMs;
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(idleClosed).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 500);
    expect(idleClosed).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + 3_000);

    const headersClosed = await Promise.all(headerOnly.map((client) => client.closedAfterMs));
    for (const ms of headersClosed) expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + 3_000);
    for (const client of headerOnly) expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);

    const bodiesClosed = await Promise.all(slowBodies.map((client) => client.closedAfterMs));
    for (const ms of bodiesClosed) expect(ms).toBeLessThan(2 * BODY_WINDOW_MS + 3_000);
    // Cut while the action waited for the rest of the form: no answer, and nothing logged as an error.
    for (const client of slowBodies) expect(client.received()).toBe("");
    expect(captured.filter((line) => line.includes('"level":50'))).toEqual([]);
    const cut = captured.filter((line) => line.includes('"msg":"closed a connection whose body came too slowly"'));
    expect(cut).toHaveLength(slowBodies.length);

    // And still answering.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  }, 60_000);
});

/** An address of this machine other than loopback: connections to it come from that address, as from another machine. */
const outside = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

describe.skipIf(!outside)("connections from one address, with no proxy in front", () => {
  async function serverOn(host: string, trustProxy: boolean) {
    const server = createAppServer({ ...config(), trustProxy }, { assetsDir: "public" });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as net.AddressInfo;
    return {
      port,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  /** Opens `count` connections to `host` and reports, after a moment, how many the server closed. */
  async function openMany(port: number, host: string, count: number): Promise<{ clients: Slow[]; closed: number }> {
    const clients = Array.from({ length: count }, () => slowClient(port, host, ""));
    await Promise.all(
      clients.map(
        (client) =>
          new Promise((resolve) =>
            client.socket.readyState === "open"
              ? resolve(null)
              : client.socket.once("connect", resolve).once("close", resolve),
          ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    return {
      clients,
      closed: clients.filter((client) => client.socket.destroyed || client.socket.readableEnded).length,
    };
  }

  it(`are capped at ${CONNECTIONS_PER_ADDRESS}, the rest closed as they open, and answered again once some close`, async () => {
    const server = await serverOn(outside!, false);
    try {
      const { clients, closed } = await openMany(server.port, outside!, CONNECTIONS_PER_ADDRESS + 10);
      expect(closed).toBe(10);
      // The address is logged once for the ten, not once each: a flood must not flood the log.
      const overCap = captured.filter((line) => line.includes("closed connections over the limit per client address"));
      expect(overCap).toHaveLength(1);
      expect(JSON.parse(overCap[0]!)).toMatchObject({
        level: 30,
        address: outside,
        limit: CONNECTIONS_PER_ADDRESS,
        closed: 1,
      });
      // A request on one of the connections kept is answered.
      const kept = clients.find((client) => !client.socket.destroyed)!;
      kept.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${outside}\r\n\r\n`);
      await expect.poll(() => kept.received(), { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 200 /);
      for (const client of clients.slice(0, 20)) client.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const response = await fetch(`http://${outside}:${server.port}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  }, 30_000);

  it("are not capped behind a proxy (TRUST_PROXY), nor from this machine's loopback", async () => {
    const proxied = await serverOn(outside!, true);
    try {
      expect((await openMany(proxied.port, outside!, CONNECTIONS_PER_ADDRESS + 10)).closed).toBe(0);
    } finally {
      await proxied.close();
    }
    const local = await serverOn("127.0.0.1", false);
    try {
      expect((await openMany(local.port, "127.0.0.1", CONNECTIONS_PER_ADDRESS + 10)).closed).toBe(0);
    } finally {
      await local.close();
    }
  }, 30_000);
});
