import type http from "node:http";
import net from "node:net";
import type { Config } from "~/platform/config.server";
import { logger } from "~/platform/logger.server";

/**
 * Deadlines for clients that send slowly or not at all, each holding a socket and its buffers for
 * as long as it likes: an attack run kept 450 connections open by sending one byte every 5 s.
 *
 * - The request's head (line and headers) must arrive within HEADERS_TIMEOUT_MS: Node answers 408
 *   and closes the connection. Node checks every CHECK_EVERY_MS (by default only every 30 s).
 * - A body must keep coming at BODY_MIN_BYTES per BODY_WINDOW_MS while the server is ready for it;
 *   a slower one has its connection closed. A body the server is not reading (the request waiting
 *   for its turn, or its answer given) is the server's wait, not the client's: it is not judged
 *   while the request's buffer is full. A 6 MB upload at that rate would still take an hour and a
 *   half; REQUEST_TIMEOUT_MS bounds any request whole. It is half an hour, not minutes: the
 *   largest upload (5 MB) must arrive whole from a member on a poor mobile link (3 KB/s), and the
 *   body rate already cuts off a client that sends slower than that to hold a socket.
 * - A kept-alive connection with no request in flight is closed after KEEP_ALIVE_TIMEOUT_MS.
 * - Without a reverse proxy (TRUST_PROXY unset) one client address holds at most
 *   CONNECTIONS_PER_ADDRESS connections; more are closed as they open, the address logged at info
 *   at most once every OVER_CAP_LOG_EVERY_MS (a flood must not flood the log). Loopback is exempt: it is
 *   this machine (a local proxy not declared as one, a health check, the benchmark). Behind a
 *   proxy every connection comes from the proxy, which limits clients itself.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30 * 60_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
export const BODY_WINDOW_MS = 10_000;
export const BODY_MIN_BYTES = 10 * 1024;
export const CONNECTIONS_PER_ADDRESS = 64;
export const OVER_CAP_LOG_EVERY_MS = 60_000;
const CHECK_EVERY_MS = 1_000;

const isLoopback = (address: string) =>
  net.isIPv4(address.replace(/^::ffff:/, "")) ? address.replace(/^::ffff:/, "").startsWith("127.") : address === "::1";

/** Closes the connection of a request whose body comes slower than the least rate, once the server is ready for it. */
function watchBodyRate(req: http.IncomingMessage, res: http.ServerResponse): void {
  const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
  if (!hasBody || req.complete) return;
  const socket = req.socket;
  let timer: NodeJS.Timeout | undefined;
  const start = () => {
    let readAt = socket.bytesRead;
    timer = setInterval(() => {
      if (req.complete || socket.destroyed) return stop();
      const arrived = socket.bytesRead - readAt;
      readAt = socket.bytesRead;
      // A full buffer means the server is not reading: the client is waiting on it.
      if (req.readableLength >= req.readableHighWaterMark || arrived >= BODY_MIN_BYTES) return;
      logger.info(
        { method: req.method, bytes: arrived, windowMs: BODY_WINDOW_MS },
        "closed a connection whose body came too slowly",
      );
      stop();
      socket.destroy();
    }, BODY_WINDOW_MS);
    timer.unref();
  };
  const stop = () => clearInterval(timer);
  req.once("end", stop);
  socket.once("close", stop);
  // A client that asked before sending ("Expect: 100-continue") sends only once told to.
  if (/100-continue/i.test(String(req.headers.expect ?? ""))) {
    const writeContinue = res.writeContinue.bind(res);
    res.writeContinue = (callback?: () => void) => {
      if (!timer) start();
      writeContinue(callback);
    };
  } else {
    start();
  }
}

/** Applies the deadlines and the per-address cap to `server`; call before it listens. */
export function guardAgainstSlowClients(server: http.Server, cfg: Pick<Config, "trustProxy">): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Read when the server starts listening: how soon the two timeouts above are noticed.
  (server as http.Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = CHECK_EVERY_MS;
  server.prependListener("request", watchBodyRate);
  server.prependListener("checkContinue", watchBodyRate);
  if (cfg.trustProxy) return;
  const open = new Map<string, number>();
  let closedSinceLog = 0;
  let loggedAt = -Infinity;
  server.prependListener("connection", (socket: net.Socket) => {
    const address = socket.remoteAddress;
    if (!address || isLoopback(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > CONNECTIONS_PER_ADDRESS) {
      socket.destroy();
      closedSinceLog += 1;
      if (performance.now() - loggedAt >= OVER_CAP_LOG_EVERY_MS) {
        logger.info(
          { address, limit: CONNECTIONS_PER_ADDRESS, closed: closedSinceLog },
          "closed connections over the limit per client address",
        );
        loggedAt = performance.now();
        closedSinceLog = 0;
      }
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
