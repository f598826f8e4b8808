import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processIsAlive } from "~/platform/processes.server";
import { unpackMigratedDatabase } from "../helpers/db";
import { run, startBuiltServer, type RunningProcess } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

withProductionBuild();

/**
 * The guide's upgrade, as a supervisor sees it: `npm run build` while the site runs, then a
 * restart. The running site must stay whole during the build (its pages' scripts and styles
 * served), and the restart must not build again, so the proxy's gap is the start's few seconds.
 */
const running: RunningProcess[] = [];
const servers: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const proc of running.splice(0)) if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
  for (const pid of servers.splice(0)) if (processIsAlive(pid)) process.kill(pid, "SIGKILL");
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The status of every address, or the error that ended its answer. */
async function statuses(base: string, addresses: string[]): Promise<string[]> {
  return Promise.all(
    addresses.map(async (address) => {
      try {
        const response = await fetch(base + address);
        await response.arrayBuffer();
        return `${address} ${response.status}`;
      } catch (error) {
        return `${address} ${(error as Error).message}`;
      }
    }),
  );
}

describe("an upgrade", () => {
  it("builds beside the running site, which keeps serving whole pages, and restarts without building", async () => {
    const dataDir = unpackMigratedDatabase(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-upgrade-")));
    dirs.push(dataDir);
    const { server, url, port } = await startBuiltServer({ DATA_DIR: dataDir });
    running.push(server);
    // The home page (its stylesheet and icons) and the sign-in page (its scripts too).
    const pages = await Promise.all(["/", "/auth"].map(async (address) => (await fetch(url + address)).text()));
    const assets = [
      ...new Set(
        pages.flatMap((page) => [...page.matchAll(/(?:href|src)="(\/assets\/[^"#?]+)/g)].map((match) => match[1]!)),
      ),
    ];
    expect(assets.filter((asset) => asset.endsWith(".js")).length).toBeGreaterThan(0);
    expect(assets.filter((asset) => asset.endsWith(".css")).length).toBeGreaterThan(0);
    const addresses = ["/", "/auth", ...assets];

    // The build, as the guide's upgrade runs it, while the page and its files are asked for again and again.
    const build = run(process.execPath, ["scripts/launch/build.mjs"], {});
    running.push(build);
    const failures: string[] = [];
    let rounds = 0;
    while (build.child.exitCode === null) {
      failures.push(...(await statuses(url, addresses)).filter((line) => !line.endsWith(" 200")));
      rounds++;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await build.exited).code, build.output()).toBe(0);
    expect(rounds).toBeGreaterThan(5);
    expect(failures).toEqual([]);
    expect(await statuses(url, addresses)).toEqual(addresses.map((address) => `${address} 200`));

    // The restart: npm start finds the build current and only starts it.
    const stoppedAt = performance.now();
    server.child.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    const npm = run("npm", ["start"], { NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(port) });
    running.push(npm);
    await npm.waitFor(/running at http/, 60_000);
    const gapMs = performance.now() - stoppedAt;
    const pid = Number(/"pid":(\d+)/.exec(npm.output())?.[1]);
    if (pid) servers.push(pid);
    expect(npm.output()).toContain("The build is up to date with the sources: starting it.");
    expect(npm.output()).not.toContain("Building the site");
    expect(await statuses(url, addresses)).toEqual(addresses.map((address) => `${address} 200`));
    console.log(`restart gap: ${Math.round(gapMs)} ms`);
    expect(gapMs).toBeLessThan(15_000);
  }, 300_000);
});
