import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, PGLITE_EXTENSIONS, rawRows } from "~/platform/db/client.server";
import { unpackMigratedDatabase } from "../helpers/db";
import { migrationFolders } from "../helpers/migrations";

/**
 * A start of the embedded database finds what an earlier one left. A first start stopped (Ctrl-C,
 * the memory killer) after the database was made and before it was migrated leaves a database
 * with no migrations' record: the next start migrates it rather than stopping on the record.
 */
const { tempDir } = migrationFolders();

describe("starting on the embedded database", () => {
  it("migrates a database that was made but never migrated", async () => {
    const dataDir = unpackMigratedDatabase(tempDir("embedded-start"));
    // The suite's migrated database emptied back to what making one leaves.
    const bare = await PGlite.create({ dataDir: path.join(dataDir, "pgdata"), extensions: PGLITE_EXTENSIONS });
    await bare.exec("drop schema drizzle cascade; drop schema public cascade; create schema public;");
    await bare.close();

    const handle = await openDatabase({ dataDir });
    try {
      const [profiles] = await rawRows<{ rows: number }>(handle.db, sql`select count(*)::int as rows from profiles`);
      expect(profiles!.rows).toBe(0);
      const [record] = await rawRows<{ applied: number }>(
        handle.db,
        sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
      );
      expect(record!.applied).toBeGreaterThan(25);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
