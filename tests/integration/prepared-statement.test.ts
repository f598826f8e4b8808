import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/platform/db/client.server";
import { preparedStatement } from "~/platform/db/prepared.server";
import { settings } from "~/platform/db/schema";
import { createTestDatabase } from "../helpers/db";

// Two databases, as the tests and a restart give the process: a statement belongs to one.
let first: DatabaseHandle;
let second: DatabaseHandle;
beforeAll(async () => {
  [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  for (const [handle, name] of [
    [first, "Ada"],
    [second, "Ezra"],
  ] as const) {
    await handle.db.insert(settings).values([1, 2, 3].map((n) => ({ key: `${name}-${n}`, value: `${name} ${n}` })));
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
});

let builds = 0;
const nameOf = preparedStatement("test_setting_value", (db, name) => {
  builds++;
  return db
    .select({ name: settings.value })
    .from(settings)
    .where(eq(settings.key, sql.placeholder("id")))
    .prepare(name);
});

describe("a statement built once per database", () => {
  it("is built on first use in each database, answers each run's values there, and is not built again", async () => {
    // More runs than the pool has connections, at once: each connection prepares it by name the first time.
    const answers = await Promise.all(
      [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3].map((n) => nameOf(first.db).execute({ id: `Ada-${n}` })),
    );
    expect(answers.map((rows) => rows[0]?.name)).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3].map((n) => `Ada ${n}`));
    expect(builds).toBe(1);
    expect(await nameOf(second.db).execute({ id: "Ezra-2" })).toEqual([{ name: "Ezra 2" }]);
    expect(await nameOf(second.db).execute({ id: "Ada-2" })).toEqual([]);
    expect(await nameOf(first.db).execute({ id: "Ada-3" })).toEqual([{ name: "Ada 3" }]);
    expect(builds).toBe(2);
  });

  it("refuses a second statement under a name already given, as the server keeps them by name", () => {
    expect(() =>
      preparedStatement("test_setting_value", (db, name) => db.select().from(settings).prepare(name)),
    ).toThrow("Two prepared statements are named test_setting_value");
  });
});
