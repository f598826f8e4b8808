import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rawRows } from "~/platform/db/client.server";
import { profileValues } from "~/platform/db/factories";
import { maintainEmbeddedDatabase } from "~/platform/db/maintenance.server";
import { profiles } from "~/platform/db/schema";
import { withTestDatabase } from "../helpers/db";

const db = withTestDatabase();
const estimatedRows = async () =>
  (await rawRows<{ n: number }>(db(), sql`select reltuples::int as n from pg_class where relname = 'profiles'`))[0]!.n;

describe("database maintenance", () => {
  it("refreshes the statistics the planner judges tables by", async () => {
    await db()
      .insert(profiles)
      .values(Array.from({ length: 400 }, () => profileValues({ role: "player" })));
    expect(await estimatedRows()).toBeLessThan(400);
    await maintainEmbeddedDatabase(db());
    expect(await estimatedRows()).toBe(400);
  });
});
