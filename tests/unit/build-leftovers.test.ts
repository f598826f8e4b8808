import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withTempDirs } from "../helpers/temp-dirs";

const tempDir = withTempDirs();

describe("a build's start", () => {
  it("removes the previous build a killed build left beside build/, and nothing else", () => {
    const root = tempDir("build-leftovers");
    for (const dir of ["build.old-4242/client", "build/client", "build.older/client", "backups"])
      fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, "build.old-4242/client/x.js"), "old");
    const script = `const { removeLeftoverBuilds } = await import(${JSON.stringify(path.resolve("scripts/launch/build.mjs"))}); removeLeftoverBuilds(process.argv[1]);`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script, root], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(fs.readdirSync(root).sort()).toEqual(["backups", "build", "build.older"]);
  });

  it("is where buildSite starts", () => {
    const source = fs.readFileSync("scripts/launch/build.mjs", "utf8");
    const body = source.slice(source.indexOf("export async function buildSite()"));
    expect(body.indexOf("removeLeftoverBuilds(ROOT)")).toBeGreaterThan(0);
    expect(body.indexOf("removeLeftoverBuilds(ROOT)")).toBeLessThan(body.indexOf("runChild"));
  });
});
