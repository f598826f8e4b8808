import type { Database } from "./client.server";

/** Names already given, so that two statements never share one (PostgreSQL keeps them by name). */
const named = new Set<string>();

/**
 * A statement drizzle builds once per database, with `sql.placeholder` where each run's values
 * go, and prepares under `name` (`build` is given it): for a page read on every visit. Building a statement walks its whole expression tree
 * (about 0.15 ms of the server's thread for a select of six columns with a window, a filter
 * and an order), which a statement written once pays once. On a PostgreSQL server it is also
 * prepared by `name` on each pooled connection the first time that connection runs it, so the
 * server parses and plans it once there; the embedded database prepares every statement once
 * by its text (pglite-statements.server.ts). Kept per database: the tests open many.
 */
export function preparedStatement<P>(name: string, build: (db: Database, name: string) => P): (db: Database) => P {
  if (named.has(name)) throw new Error(`Two prepared statements are named ${name}`);
  named.add(name);
  const kept = new WeakMap<Database, P>();
  return (db) => {
    let statement = kept.get(db);
    if (!statement) {
      statement = build(db, name);
      kept.set(db, statement);
    }
    return statement;
  };
}
