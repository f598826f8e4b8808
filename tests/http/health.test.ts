import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { withAppServer } from "../helpers/app-server";
import { testDatabaseKind, withTestDatabase } from "../helpers/db";

const db = withTestDatabase();

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

  it.runIf(testDatabaseKind === "pglite")("answers 503 when the database still reads but cannot be written", async () => {
    // The embedded database has one connection, so this makes every later transaction read-only.
    await db().execute(sql`set default_transaction_read_only = on`);
    expect((await fetch(`${app().url}/`)).status).toBe(200);
    const health = await fetch(`${app().url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.text()).toBe("database cannot be written");

    await db().execute(sql`set default_transaction_read_only = off`);
    expect((await fetch(`${app().url}/healthz`)).status).toBe(200);
  });
});
