import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unpackMigratedDatabase } from "../helpers/db";
import { freePort } from "../helpers/ports";
import { run } from "../helpers/processes";
import { withProductionBuild } from "../helpers/production-build";

// The production server as operators run it: built first when the sources changed.
withProductionBuild();

describe("the first manager's set-up link at start-up", () => {
  // A migrated database with no one in it, as a first start leaves it, without paying PGlite's
  // initdb here (a first start on an empty DATA_DIR is npm-start.test.ts's).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-setup-link-"));
  beforeAll(() => unpackMigratedDatabase(dataDir));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  async function startAndStop() {
    const port = await freePort();
    const server = run(process.execPath, ["server.mjs"], {
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: "production",
      APP_URL: "https://members.example.org/",
    });
    try {
      await server.waitFor(/running at http:\/\/localhost:\d+/, 90_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const link = /https:\/\/members\.example\.org\/setup\?token=([\w-]+)/.exec(server.output());
      if (link) expect((await fetch(`http://127.0.0.1:${port}/setup?token=${link[1]}`)).status).toBe(200);
      return { link, output: server.output() };
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }

  it("is printed while no manager exists, and not once one does", async () => {
    const first = await startAndStop();
    expect(first.link, first.output).not.toBeNull();
    expect(first.output).toContain("No manager yet. Create the first one in your browser (the link works once)");

    const admin = run(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/admin.ts",
        "create-user",
        "--email",
        "ada@example.org",
        "--password",
        "Choose#1877",
        "--first",
        "Ada",
        "--last",
        "Boss",
        "--role",
        "manager",
      ],
      { DATA_DIR: dataDir },
    );
    expect((await admin.exited).code, admin.output()).toBe(0);

    const second = await startAndStop();
    expect(second.link).toBeNull();
    expect(second.output).not.toContain("/setup?token=");
  }, 180_000);
});
