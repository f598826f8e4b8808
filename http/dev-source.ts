import type http from "node:http";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { databaseHandle, type setDatabase } from "~/platform/db/client.server";

/**
 * `npm run dev` (scripts/launch/dev.mjs): Vite in middleware mode serves the browser's
 * modules in place of build/client, and each request runs the app's current source.
 */
export type Development = {
  vite: ViteDevServer;
  /** The server Vite's hot-reload socket was given (it listens for upgrades on it); it answers the requests too. */
  server: http.Server;
};

/**
 * The current source of the app, through Vite, for `npm run dev`. After an edit Vite runs
 * the changed modules again; a new copy of the database module starts without the open
 * database and would open a second one (which the embedded database's lock refuses), so
 * each copy is handed the server's own.
 */
export function sourceApp(vite: ViteDevServer): () => Promise<ServerBuild> {
  const runner = (vite.environments.ssr as unknown as { runner: { import<T>(url: string): Promise<T> } }).runner;
  const given = new WeakSet<object>();
  return async () => {
    const [app, db] = await Promise.all([
      runner.import<ServerBuild>("virtual:react-router/server-build"),
      runner.import<{ setDatabase: typeof setDatabase }>("/app/platform/db/client.server.ts"),
    ]);
    if (!given.has(db)) {
      given.add(db);
      db.setDatabase(await databaseHandle());
    }
    return app;
  };
}
