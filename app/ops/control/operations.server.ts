import path from "node:path";
import { createBackup } from "../backup/dump.server";
import type { Config } from "~/platform/config.server";
import type { DatabaseHandle } from "~/platform/db/client.server";
import type { ServiceJob } from "~/platform/jobs.server";
import { logger } from "~/platform/logger.server";
import { runAdminCommand } from "./admin.server";
import { controlSocketPath, startControlSocket } from "./control-socket.server";

/**
 * The control socket the command-line tools use while the running server holds the embedded
 * database. (On PostgreSQL the tools connect themselves, as many processes may: no socket.)
 */
export function controlSocketJob(handle: DatabaseHandle, cfg: Config): ServiceJob {
  return {
    name: "control socket",
    async start() {
      const socket = await startControlSocket(cfg.dataDir, {
        "/admin": (body) => runAdminCommand((body as { argv: string[] }).argv),
        // The import code (CSV parsing, file sniffing) is loaded when an import is run, not held by an idle server.
        "/import": async (body) => {
          const { dir, check } = body as { dir: string; check?: boolean };
          return (await import("../import/run.server")).runImportCommand(dir, { check: check === true });
        },
        "/backup": async (body) => {
          const result = await createBackup(handle.db, handle.kind, path.resolve((body as { target: string }).target));
          return { file: result.file, ms: result.ms, manifest: result.manifest, leftovers: result.leftovers };
        },
      }).catch((error: unknown) => {
        // The site still serves; only the tools cannot reach it (e.g. a DATA_DIR path too long for a socket).
        logger.warn(
          { reason: (error as Error).message, socket: controlSocketPath(cfg.dataDir) },
          "control socket unavailable: npm run admin and backup need the site stopped",
        );
        return undefined;
      });
      return { stop: async () => await socket?.close() };
    },
  };
}
