import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { letters } from "~/platform/db/schema";
import { runImportCommand } from "~/ops/import/run.server";
import { IDS, sampleExport, writeExport } from "../fixtures/old-export";
import { withAppServer } from "../helpers/app-server";
import { testDatabaseKind, withTestDatabase } from "../helpers/db";

const db = withTestDatabase();
const LARGE_IMPORT_LETTERS = 3_000;

describe("GET /healthz", () => {
  const app = withAppServer();
  afterEach(async () => {
    await db().execute(sql`set default_transaction_read_only = off`);
  });

  it("answers 200 while the database takes writes", async () => {
    const health = await fetch(`${app().url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok");
    expect(health.headers.get("Cache-Control")).toBe("no-store");
  });

  it.runIf(testDatabaseKind === "pglite")(
    "answers 503 when the database still reads but cannot be written",
    async () => {
      // The embedded database has one connection, so this makes every later transaction read-only.
      await db().execute(sql`set default_transaction_read_only = on`);
      expect((await fetch(`${app().url}/`)).status).toBe(200);
      const health = await fetch(`${app().url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.text()).toBe("database cannot be written");

      await db().execute(sql`set default_transaction_read_only = off`);
      expect((await fetch(`${app().url}/healthz`)).status).toBe(200);
    },
  );
});

describe.runIf(testDatabaseKind === "pglite")("GET /healthz while long work holds the embedded database", () => {
  const app = withAppServer();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-health-import-"));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("answers 200 during an import, saying what the site is busy with, and checks the database again after it", async () => {
    // An export large enough that its one transaction holds the database for seconds.
    const data = sampleExport();
    data.research = [];
    data.files = {};
    data.letters = Array.from({ length: LARGE_IMPORT_LETTERS }, (_, i) => ({
      user_id: IDS.bo,
      recipient: "Sheriff Cole",
      body: `Letter ${i}`,
      created_at: "2025-05-24T08:00:00Z",
    }));
    const dir = writeExport(work, data);

    let finished = Infinity;
    const importing = runImportCommand(dir).then((outcome) => {
      finished = Date.now();
      return outcome;
    });
    const health = await fetch(`${app().url}/healthz`);
    const answered = Date.now();
    const text = await health.text();
    const outcome = await importing;
    expect(outcome.err).toEqual([]);
    // Answered while the import still ran.
    expect(answered).toBeLessThan(finished);
    expect(health.status).toBe(200);
    expect(text).toMatch(
      /^ok \(busy: an import since \d{4}-\d\d-\d\dT[\d:.]+Z holds the database; pages wait until it ends\)$/,
    );
    expect(await db().$count(letters)).toBe(LARGE_IMPORT_LETTERS);

    const after = await fetch(`${app().url}/healthz`);
    expect(after.status).toBe(200);
    expect(await after.text()).toBe("ok");
  }, 120_000);
});
