import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import { stripVTControlCharacters } from "node:util";
import { TEST_SUITE_VARIABLES } from "~/platform/environment.server";
import { freePort } from "./ports";

export type RunningProcess = {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** Resolves when the process has printed a line matching `pattern`. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/**
 * Starts a process with this one's environment and `env`, less the variables `options.unset`
 * names. The test suite's own settings (its cheap CAPTCHA) are not handed down unless `env` gives
 * them: a server started here runs as an operator would run it, and a production one refuses them.
 */
export function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; unset?: string[] } = {},
): RunningProcess {
  const inherited = { ...process.env };
  // `unset`: variables the process must not have at all (an empty one still hides a .env file's value).
  for (const name of [...TEST_SUITE_VARIABLES, ...(options.unset ?? [])]) delete inherited[name];
  const child = spawn(command, args, { env: { ...inherited, ...env }, stdio: "pipe", cwd: options.cwd });
  let output = "";
  const listeners = new Set<() => void>();
  // Colour codes are dropped: tools colour their output when CI is set (picocolors does),
  // and a pattern must match the text a person reads.
  const collect = (chunk: Buffer) => {
    output += stripVTControlCharacters(chunk.toString());
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => {
          if (!pattern.test(output)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`process exited before printing ${pattern}; output:\n${output}`));
          }
        });
        check();
      }),
  };
}

/**
 * What `npm run serve` starts the server with (package.json): its variables (the C library's
 * setting) and Node's options, which decide much of the server's memory.
 */
export function serveScriptSettings(): { env: Record<string, string>; nodeOptions: string[] } {
  const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
  const [, assignments, command] = /^((?:\S+=\S*\s+)*)exec node (.+)$/.exec(scripts.serve!)!;
  const env = Object.fromEntries(
    assignments!
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((assignment) => assignment.split("=", 2) as [string, string]),
  );
  return { env, nodeOptions: command!.split(/\s+/).filter((word) => word.startsWith("--")) };
}

/**
 * The production build's server (server.mjs, as `npm run serve` runs it: its variables and
 * Node's options) on a free port, with `env` added, once it says it is running: the process and
 * the address to reach it at.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<{ server: RunningProcess; url: string; port: number }> {
  const port = await freePort();
  const serve = serveScriptSettings();
  const server = run(process.execPath, [...serve.nodeOptions, "server.mjs"], {
    ...serve.env,
    NODE_ENV: "production",
    PORT: String(port),
    ...env,
  });
  await server.waitFor(/running at http:\/\/\S+:\d+/, timeoutMs);
  return { server, url: `http://127.0.0.1:${port}`, port };
}
