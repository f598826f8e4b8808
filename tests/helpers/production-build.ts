import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll } from "vitest";
import { processIsAlive } from "~/platform/processes.server";

const LOCK = path.resolve("build.lock");

function buildIsCurrent(): boolean {
  const check = spawnSync(process.execPath, [
    "--input-type=module",
    "-e",
    "const m = await import('./scripts/launch/build.mjs'); process.exit(m.buildIsCurrent() ? 0 : 1)",
  ]);
  return check.status === 0;
}

/** Takes the build lock, or returns false while another test file holds it (one that died leaves it free). */
function takeLock(): boolean {
  try {
    fs.mkdirSync(LOCK);
    fs.writeFileSync(path.join(LOCK, "pid"), String(process.pid));
    return true;
  } catch {
    const holder = Number(fs.readFileSync(path.join(LOCK, "pid"), { encoding: "utf8", flag: "a+" }));
    if (holder && !processIsAlive(holder)) fs.rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

async function ensureBuild(): Promise<void> {
  for (;;) {
    if (buildIsCurrent()) return;
    if (!takeLock()) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      if (buildIsCurrent()) return;
      let output = "";
      const child = spawn(process.execPath, ["scripts/launch/build.mjs"], { stdio: "pipe" });
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      if (code !== 0) throw new Error(`npm run build failed:\n${output}`);
      return;
    } finally {
      fs.rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

/**
 * For tests of the production server as operators run it (server.mjs, npm start): builds
 * the site first when build/ is missing or older than the sources, so these tests never
 * run stale code and a fresh clone needs no separate build. Test files running at the same
 * time share one build (the others wait for it); the HTTP tests need none (app-server.ts).
 */
export function withProductionBuild(): void {
  beforeAll(ensureBuild, 180_000);
}
