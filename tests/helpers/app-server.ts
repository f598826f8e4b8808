import { afterAll, beforeAll } from "vitest";
import { config, resetConfig } from "~/platform/config.server";
import { createAppServer } from "../../http/app";

/**
 * The production HTTP server (http/app.ts) run from the source, in this process and in
 * the test's own module graph, so it uses the test file's database. Tests reach it over
 * real HTTP. No build is needed: the app comes from React Router's Vite plugin.
 */
export async function startAppServer(): Promise<{ url: string; close: () => Promise<void> }> {
  // Without a build there are no compiled assets; the files copied into one as they are remain.
  const server = createAppServer(config(), { assetsDir: "public" });
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
 * Starts the app for this test file (after the file's database) and stops it
 * afterwards. `env` is applied first, because the app reads it on first use.
 */
export function withAppServer(env: Record<string, string> = {}): () => { url: string } {
  let server: Awaited<ReturnType<typeof startAppServer>> | undefined;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    // Read the settings with these (another file in this worker may have read them before).
    if (Object.keys(env).length > 0) resetConfig();
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    if (Object.keys(env).length > 0) resetConfig();
  });
  return () => {
    if (!server) throw new Error("The app server starts in beforeAll");
    return server;
  };
}
