import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SUPPORTED_NODE_MAJOR, unsupportedNodeMessage } from "../../scripts/launch/node-version.mjs";

describe("the Node.js line the site supports", () => {
  it("refuses a runtime past its end of life, naming it and the line it needs", () => {
    expect(SUPPORTED_NODE_MAJOR).toBe(26);
    const message = unsupportedNodeMessage("20.19.5");
    expect(message).toContain("Hopewell needs Node.js 26 or later; this is Node.js 20.19.5");
    expect(message).toContain('"Upgrading"');
    expect(unsupportedNodeMessage("22.22.0")).not.toBeNull();
    expect(unsupportedNodeMessage("24.21.0")).not.toBeNull();
  });

  it("takes the supported line and later ones", () => {
    expect(unsupportedNodeMessage("26.0.0")).toBeNull();
    expect(unsupportedNodeMessage("26.10.0")).toBeNull();
    expect(unsupportedNodeMessage("28.1.0")).toBeNull();
  });

  it("is named alike by engines, .node-version, the image, the dev dependency and the docs", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
    expect(pkg.engines.node).toBe(`>=${SUPPORTED_NODE_MAJOR}`);
    // The lock file repeats engines; when it lags, every `npm install` on a server rewrites it and
    // a later `git checkout` of another version refuses to overwrite the change.
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
    expect(lock.packages[""].engines.node).toBe(pkg.engines.node);
    expect(fs.readFileSync(".node-version", "utf8").trim()).toBe(String(SUPPORTED_NODE_MAJOR));
    expect(fs.readFileSync("Dockerfile", "utf8")).toContain(
      `ARG NODE_IMAGE=node:${SUPPORTED_NODE_MAJOR}-bookworm-slim`,
    );
    expect(pkg.devDependencies.node).toMatch(new RegExp(`^${SUPPORTED_NODE_MAJOR}\\.\\d+\\.\\d+$`));
    expect(fs.readFileSync("docs/operators.md", "utf8")).toContain(`setup_${SUPPORTED_NODE_MAJOR}.x`);
  });

  it("runs the suite itself on the supported line", () => {
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(SUPPORTED_NODE_MAJOR);
  });

  // The machine's own Node.js, where it is older (Debian's is 20): the server stops at once with
  // the message instead of starting and failing later.
  const systemNode = "/usr/bin/node";
  const systemVersion = fs.existsSync(systemNode)
    ? spawnSync(systemNode, ["--version"], { encoding: "utf8" }).stdout.trim()
    : "";
  const older = systemVersion !== "" && Number(systemVersion.slice(1).split(".")[0]) < SUPPORTED_NODE_MAJOR;
  it.skipIf(!older)(
    `stops server.mjs at once on the machine's older Node.js (needs one older than ${SUPPORTED_NODE_MAJOR} at ${systemNode})`,
    () => {
      const result = spawnSync(systemNode, ["server.mjs"], {
        encoding: "utf8",
        timeout: 20_000,
        env: { ...process.env, HOPEWELL_ENV_FILE: "none" },
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        `Hopewell needs Node.js ${SUPPORTED_NODE_MAJOR} or later; this is Node.js ${systemVersion.slice(1)}`,
      );
      expect(result.stdout).not.toContain("Hopewell is running");
    },
  );
});
