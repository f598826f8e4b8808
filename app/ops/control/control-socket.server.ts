import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { logger } from "~/platform/logger.server";

/**
 * With the embedded database only one process may open DATA_DIR, so the command-line
 * tools ask the running server instead, over a Unix socket inside DATA_DIR that only the
 * owner may use (mode 0600). Requests are JSON over HTTP; each route is a handler.
 */
export const CONTROL_SOCKET = "hopewell.sock";

/** The running server's answer was an error, or it did not answer: a message for the operator. */
export class ControlSocketError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ControlSocketError";
  }
}

export type ControlHandlers = Record<string, (body: unknown) => Promise<unknown>>;

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, CONTROL_SOCKET);
}

export async function startControlSocket(
  dataDir: string,
  handlers: ControlHandlers,
): Promise<{ close: () => Promise<void> }> {
  const socketPath = controlSocketPath(dataDir);
  const server = http.createServer((req, res) => {
    const handler = req.method === "POST" ? handlers[req.url ?? ""] : undefined;
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!handler) return reply(404, { error: `No control command ${req.url}` });
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      void (async () => {
        try {
          reply(200, await handler(text ? JSON.parse(text) : {}));
        } catch (error) {
          logger.error({ err: error, command: req.url }, "control command failed");
          reply(500, { error: error instanceof Error ? error.message : String(error) });
        }
      })();
    });
  });
  // The data directory's lock is ours, so a socket file still there was left by a server that died.
  await fs.promises.rm(socketPath, { force: true });
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(previous);
  }
  await fs.promises.chmod(socketPath, 0o600);
  logger.info({ socket: socketPath }, "control socket listening");
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/** Asks the server that holds `dataDir` to run a command; a clear error when it does not answer. */
export async function askRunningServer<T>(dataDir: string, command: string, body: unknown): Promise<T> {
  const socketPath = controlSocketPath(dataDir);
  return new Promise<T>((resolve, reject) => {
    const req = http.request(
      { socketPath, path: command, method: "POST", headers: { "Content-Type": "application/json" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          try {
            const parsed = JSON.parse(text) as T & { error?: string };
            if (res.statusCode !== 200)
              reject(new ControlSocketError(parsed.error ?? `The running server answered ${res.statusCode}.`));
            else resolve(parsed);
          } catch {
            reject(new ControlSocketError(`The running server gave an unreadable answer (${res.statusCode}).`));
          }
        });
      },
    );
    req.on("error", (error) =>
      reject(
        new ControlSocketError(
          `The site is running on ${dataDir}, but its control socket ${socketPath} does not answer (${(error as NodeJS.ErrnoException).code ?? error.message}). Restart the site, or stop it and try again.`,
        ),
      ),
    );
    req.end(JSON.stringify(body));
  });
}
