import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PGLITE_EXTENSIONS } from "~/platform/db/client.server";
import { PGliteWithPreparedStatements, PREPARED_STATEMENTS_KEPT } from "~/platform/db/pglite-statements.server";

let client: PGliteWithPreparedStatements;

beforeAll(async () => {
  client = await PGliteWithPreparedStatements.open({
    loadDataDir: new Blob([fs.readFileSync(inject("pgliteSnapshot"))]),
    extensions: PGLITE_EXTENSIONS,
  });
  await client.exec(
    "create table things (id int primary key, name text not null, at timestamptz, tags text[], data jsonb, price numeric, big bigint, ok boolean, day date)",
  );
}, 60_000);
afterAll(() => client.close());

/** PGlite's own path: parse, plan and run afresh, as every query did before. */
const unprepared = (text: string, params: unknown[] = [], options?: Parameters<PGlite["query"]>[2]) =>
  PGlite.prototype.query.call(client, text, params, options);

/** The names of the statements the database holds prepared. */
async function preparedInDatabase(): Promise<string[]> {
  const { rows } = await unprepared("select name from pg_prepared_statements where name like 'hopewell_%'");
  return rows.map((row) => (row as { name: string }).name);
}

describe("statements prepared once on the embedded database", () => {
  it("answers what PGlite's own path answers, for every kind of value and with a caller's parsers", async () => {
    const at = new Date("2026-11-27T14:15:00.000Z");
    await client.query("insert into things values ($1, $2, $3, $4, $5, $6, $7, $8, $9)", [
      1,
      "Silas",
      at,
      ["lantern", "rope"],
      { gold: 3 },
      "12.50",
      9_007_199_254_740_993n,
      true,
      "2027-03-19",
    ]);
    await client.query("insert into things values ($1, $2, $3, $4, $5, $6, $7, $8, $9)", [
      2,
      "Ezra",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    const text = "select * from things where id = any($1) order by id";
    const drizzleLike = { rowMode: "array" as const, parsers: { 1184: (value: string) => value } };
    for (const options of [undefined, drizzleLike]) {
      const mine = await client.query(text, [[1, 2]], options);
      const theirs = await unprepared(text, [[1, 2]], options);
      expect(mine.rows).toEqual(theirs.rows);
      expect(mine.fields).toEqual(theirs.fields);
    }
    expect((await client.query<{ at: Date; tags: string[]; data: unknown }>(text, [[1]])).rows[0]).toMatchObject({
      at,
      tags: ["lantern", "rope"],
      data: { gold: 3 },
    });
    expect((await client.query("update things set name = $1 where id = $2", ["Silas Marsh", 1])).affectedRows).toBe(1);
  });

  it("prepares a statement once and runs it again by name", async () => {
    const before = client.preparedCount;
    for (let i = 0; i < 3; i++)
      expect((await client.query<{ name: string }>("select name from things where id = $1", [2])).rows).toEqual([
        { name: "Ezra" },
      ]);
    expect(client.preparedCount).toBe(before + 1);
    expect((await preparedInDatabase()).length).toBe(client.preparedCount);
  });

  it("gives the database's error with its code and statement, keeps no statement that failed to parse, and stays usable", async () => {
    const before = client.preparedCount;
    const duplicate = await client
      .query("insert into things (id, name) values ($1, $2)", [1, "again"])
      .catch((error: unknown) => error);
    expect(duplicate).toMatchObject({
      code: "23505",
      query: "insert into things (id, name) values ($1, $2)",
      params: [1, "again"],
    });
    const misspelt = await client.query("selec name from things").catch((error: unknown) => error);
    expect(misspelt).toMatchObject({ code: "42601" });
    expect(client.preparedCount).toBe(before + 1);
    expect((await client.query("select count(*)::int as n from things")).rows).toEqual([{ n: 2 }]);
  });

  it("runs a transaction's statements prepared, rolls back on failure, and keeps other queries out until it ends", async () => {
    const order: string[] = [];
    const failed = client
      .transaction(async (tx) => {
        await tx.query("insert into things (id, name) values ($1, $2)", [3, "Winifred"]);
        order.push("inserted");
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx.query("insert into things (id, name) values ($1, $2)", [1, "duplicate"]);
      })
      .catch((error: unknown) => error);
    const outside = client.query("select count(*)::int as n from things").then((result) => {
      order.push("outside");
      return result.rows;
    });
    expect(await failed).toMatchObject({ code: "23505" });
    expect(await outside).toEqual([{ n: 2 }]);
    expect(order).toEqual(["inserted", "outside"]);
    await client.transaction(async (tx) => {
      await tx.query("insert into things (id, name) values ($1, $2)", [3, "Winifred"]);
    });
    expect((await client.query("select name from things where id = $1", [3])).rows).toEqual([{ name: "Winifred" }]);
  });

  it("prepares a statement again when a table's columns change under it", async () => {
    const text = "select * from things where id = $1";
    expect(Object.keys((await client.query<object>(text, [3])).rows[0]!)).not.toContain("note");
    await client.exec("alter table things add column note text default 'kept'");
    expect((await client.query<{ note: string }>(text, [3])).rows[0]!.note).toBe("kept");
  });

  it("runs a bulk write unprepared: its plan would grow with its rows and stay in the database's memory", async () => {
    const before = client.preparedCount;
    const rows = Array.from({ length: 60 }, (_, i) => [100 + i, `settler ${i}`]);
    const text = `insert into things (id, name) values ${rows.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(", ")}`;
    expect((await client.query(text, rows.flat())).affectedRows).toBe(60);
    expect(client.preparedCount).toBe(before);
    expect(await preparedInDatabase()).toHaveLength(before);
    await client.query("delete from things where id >= $1", [100]);
  });

  it(`keeps at most ${PREPARED_STATEMENTS_KEPT} statements, closing the one used longest ago`, async () => {
    const first = "select name from things where id = $1 and 1 = 1";
    await client.query(first, [3]);
    for (let i = 0; i < PREPARED_STATEMENTS_KEPT + 10; i++) await client.query(`select ${i} as n`);
    expect(client.preparedCount).toBe(PREPARED_STATEMENTS_KEPT);
    expect((await preparedInDatabase()).length).toBe(PREPARED_STATEMENTS_KEPT);
    // The closed statement is prepared again when it is next used.
    expect((await client.query(first, [3])).rows).toEqual([{ name: "Winifred" }]);
  });
});

describe("a closed embedded database", () => {
  it("refuses a prepared statement once closed, as PGlite's own query does", async () => {
    const other = await PGliteWithPreparedStatements.open({
      loadDataDir: new Blob([fs.readFileSync(inject("pgliteSnapshot"))]),
      extensions: PGLITE_EXTENSIONS,
    });
    expect((await other.query<{ n: number }>("select $1::int as n", [7])).rows).toEqual([{ n: 7 }]);
    await other.close();
    await expect(other.query("select $1::int as n", [7])).rejects.toThrow("PGlite is closed");
    await expect(other.transaction((tx) => tx.query("select $1::int as n", [7]))).rejects.toThrow("PGlite is closed");
  }, 60_000);
});
