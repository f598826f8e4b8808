import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { config } from "~/server/config.server";

const BUILD = path.resolve("build/server/index.js");

/**
 * The production build's HTTP server, in this process, on the test file's database
 * (the database handle is shared through globalThis). Tests reach it over real HTTP.
 */
export async function startAppServer(): Promise<{ url: string; close: () => Promise<void> }> {
  if (!fs.existsSync(BUILD)) throw new Error("No production build: run `npm run build` before these tests.");
  const build = (await import(/* @vite-ignore */ BUILD)) as { createAppServer: (cfg: unknown) => http.Server };
  const server = build.createAppServer(config());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the built app for this test file (after the file's database) and stops it
 * afterwards. `env` is applied first, because the built app reads it on first use.
 */
export function withAppServer(env: Record<string, string> = {}): () => { url: string } {
  let server: Awaited<ReturnType<typeof startAppServer>> | undefined;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  return () => {
    if (!server) throw new Error("The app server starts in beforeAll");
    return server;
  };
}
