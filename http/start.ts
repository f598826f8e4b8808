// Start-up: checks the configuration and storage, opens the database, starts the background
// workers, serves the request pipeline (app.ts) and shuts all of it down in order on a signal.
import type http from "node:http";
import { prepareBackupKey } from "~/ops/backup/signature.server";
import { config, ConfigError, type Config } from "~/platform/config.server";
import { closeDatabase, openDatabase, setDatabase } from "~/platform/db/client.server";
import { databaseLabel, embeddedDatabaseBeside } from "~/platform/db/where.server";
import { startJobs } from "~/platform/jobs.server";
import { logger } from "~/platform/logger.server";
import { checkStorage, StorageError, storageKind } from "~/platform/storage/storage.server";
import { createAppServer, type Development } from "./app";
import { backgroundJobs, openFirstManagerSetup } from "~/server-parts.server";
import { listenProblem } from "./listen-check";
import { builtVersionLabel } from "./site-version";

/** While the site has no manager, a one-time link to make the first one in the browser. */
async function printFirstManagerLink(origin: string) {
  try {
    const token = await openFirstManagerSetup();
    if (token)
      console.log(
        `No manager yet. Create the first one in your browser (the link works once): ${origin.replace(/\/$/, "")}/setup?token=${token}`,
      );
  } catch (error) {
    logger.warn({ err: error }, "could not check for a manager");
  }
}

/** Opens the database (migrating it), serves the site, and shuts down cleanly on SIGTERM/SIGINT. */
export async function start(options: { development?: Development } = {}): Promise<http.Server> {
  let cfg: Config;
  try {
    cfg = config();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const addressProblem = await listenProblem(cfg.port, cfg.host);
  if (addressProblem) {
    console.error(`Invalid configuration:\n  - ${addressProblem}`);
    process.exit(1);
  }

  // A stop asked for while the database opens (a supervisor giving up on a slow first
  // start) waits until it is open, so it is closed properly and its lock released.
  let stopAskedDuringStart: string | undefined;
  const askStop = (signal: string) => (stopAskedDuringStart = signal);
  process.on("SIGTERM", askStop).on("SIGINT", askStop);

  // Before the database: a wrong storage setting stops the start with nothing left open.
  try {
    await checkStorage();
  } catch (error) {
    if (error instanceof StorageError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  logger.info({ storage: storageKind() }, "file storage ready");
  prepareBackupKey(cfg.dataDir, logger);

  const startedAt = performance.now();
  const handle = await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  setDatabase(handle);
  logger.info(
    {
      database: handle.kind,
      target: databaseLabel(cfg.databaseUrl, cfg.dataDir),
      ms: Math.round(performance.now() - startedAt),
    },
    "database ready",
  );
  const beside = embeddedDatabaseBeside(cfg.databaseUrl, cfg.dataDir);
  if (beside) logger.warn(beside);
  if (cfg.isProduction && !cfg.appUrl)
    logger.warn(
      `APP_URL is not set: the links the site emails (sign-in, password resets, unsubscribing) name http://localhost:${cfg.port}, which members cannot open. Set APP_URL to the address members use.`,
    );

  const jobs = await startJobs(backgroundJobs(handle, cfg));

  const server = createAppServer(cfg, options);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(cfg.port, cfg.host, () => resolve());
  }).catch(async (error: unknown) => {
    // Taken between the check above and now: leave no lock behind.
    await jobs.stop().catch(() => {});
    await closeDatabase().catch(() => {});
    throw error;
  });
  const shownHost = !cfg.host || cfg.host === "0.0.0.0" || cfg.host === "::" ? "localhost" : cfg.host;
  logger.info({ port: cfg.port, host: cfg.host ?? "all interfaces" }, "listening");
  // Which version runs, for an operator checking an upgrade or a way back (docs/operators.md, "Upgrading").
  const running = [builtVersionLabel(), `Node.js ${process.versions.node}`].filter(Boolean).join(", ");
  console.log(`Hopewell is running at http://${shownHost}:${cfg.port} (${running})`);
  await printFirstManagerLink(cfg.appUrl ?? `http://${shownHost}:${cfg.port}`);

  let stopping = false;
  async function stop(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing requests in flight");
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Requests still running after the grace period are cut off so shutdown stays bounded.
    const force = setTimeout(() => server.closeAllConnections(), cfg.shutdownTimeoutMs);
    await closed;
    clearTimeout(force);
    await jobs.stop();
    try {
      await closeDatabase();
      logger.info("database closed");
    } catch (error) {
      logger.error({ err: error }, "closing the database failed");
      process.exitCode = 1;
    }
    // After the database: closing Vite ends its module runner, which the app's modules run in.
    await options.development?.vite
      .close()
      .catch((error: unknown) => logger.error({ err: error }, "closing Vite failed"));
    logger.flush();
    process.exit();
  }
  process.off("SIGTERM", askStop).off("SIGINT", askStop);
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  if (stopAskedDuringStart) void stop(stopAskedDuringStart);
  return server;
}
