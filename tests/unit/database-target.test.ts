import { describe, expect, it } from "vitest";
import { explainDatabaseError } from "~/platform/db/connect-errors.server";
import { databaseLabel, databaseTarget } from "~/platform/db/where.server";

/**
 * DATABASE_URL is read once for every message that names its database: the line each command
 * prints about where it works, and the start-up's "does not exist" must name the same database.
 */
describe("what DATABASE_URL names", () => {
  it.each([
    ["postgres://hopewell:secret@127.0.0.1:5432/hopewell", "hopewell", "127.0.0.1:5432", "hopewell"],
    ["postgres://club%20user@db.example/club%2Ddata", "club-data", "db.example:5432", "club user"],
    ["postgres://hopewell@db.example:5433", "hopewell", "db.example:5433", "hopewell"],
    ["postgres://127.0.0.1/", "postgres", "127.0.0.1:5432", undefined],
  ])("%s: database %s on %s", (url, database, server, user) => {
    expect(databaseTarget(url)).toMatchObject({ database, server, user });
    expect(databaseLabel(url, "/unused")).toContain(`PostgreSQL database "${database}" on ${server}`);
    const missing = explainDatabaseError({ code: "3D000" }, url) as Error;
    expect(missing.message).toContain(
      `DATABASE_URL names the database "${database}", which does not exist on ${server}.`,
    );
    expect(missing.message).not.toContain("secret");
  });
});
