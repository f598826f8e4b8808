import { spawn } from "node:child_process";

/**
 * Runs a command in a process group of its own and passes SIGINT and SIGTERM on to the
 * whole group, so that stopping the launcher (npm forwards its signal to it) stops
 * everything the command started too. Resolves to the exit code (128 + signal when killed).
 */
export function runChild(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", detached: true, ...options });
    const forward = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group has already gone.
      }
    };
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? 128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 9));
    });
  });
}
