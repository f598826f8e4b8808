import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BUILT_IN_MERCHANT_ITEMS } from "~/game/merchant";
import { openDatabase, rawRows } from "~/platform/db/client.server";
import { migrationFolders } from "../helpers/migrations";

/**
 * Upgrading a site whose members wrote orders before the club could change its price list: the
 * migration keeps with every order what its items were called and cost then (0026).
 */
const { tempDir, migrationsBefore } = migrationFolders();

describe("the migration to the club's own price list", () => {
  it("keeps each earlier order's items with the names, units and prices of the list it was written against", async () => {
    const dataDir = tempDir("club-facts-upgrade");
    const before = await openDatabase({ dataDir, migrationsDir: migrationsBefore("0026_") });
    try {
      await before.db.execute(
        sql`insert into profiles (id, name, email, first_name, last_name, role) values ('m1', 'Ada Wells', 'm1@example.org', 'Ada', 'Wells', 'player')`,
      );
      await before.db.execute(
        sql`insert into events (id, title, date) values ('00000000-0000-4000-8000-000000000001', 'Spring', '2026-04-10')`,
      );
      await before.db.execute(sql`insert into merchant_orders (submission_key, user_id, event_id, items, total_price)
        values ('00000000-0000-4000-8000-0000000000a1', 'm1', '00000000-0000-4000-8000-000000000001', '{"bullets": 2, "salt": 1}', '18.50')`);
    } finally {
      await before.close();
    }
    const after = await openDatabase({ dataDir });
    try {
      const [order] = await rawRows<{ priced_items: unknown }>(after.db, sql`select priced_items from merchant_orders`);
      const listed = (key: string) => BUILT_IN_MERCHANT_ITEMS.find((item) => item.key === key)!;
      expect(order!.priced_items).toEqual({
        bullets: {
          name: listed("bullets").name,
          unit: listed("bullets").unit,
          priceCents: listed("bullets").priceCents,
        },
        salt: { name: listed("salt").name, unit: listed("salt").unit, priceCents: listed("salt").priceCents },
      });
      expect(order!.priced_items).toMatchObject({ bullets: { name: "20 Bullets", unit: "pack", priceCents: 775 } });
      // The start that migrated also vacuumed and analysed, before serving: the rewritten table's
      // new column has statistics for the planner (it had none straight after the migration).
      const [stats] = await rawRows<{ columns: number }>(
        after.db,
        sql`select count(*)::int as columns from pg_stats where tablename = 'merchant_orders' and attname = 'priced_items'`,
      );
      expect(stats!.columns).toBe(1);
    } finally {
      await after.close();
    }
  }, 120_000);
});
