import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarFeedPath } from "~/features/events/calendar-feed.server";
import { config, overrideConfig } from "~/platform/config.server";
import { database, databaseHandle, setDatabase, type Database } from "~/platform/db/client.server";
import * as schema from "~/platform/db/schema";
import { seedDemo } from "~/ops/demo/seed.server";
import { withAppServer } from "../helpers/app-server";
import { testDatabaseKind, withTestDatabase } from "../helpers/db";
import { signedInMember } from "../helpers/members";

/**
 * Every query the staff pages run, captured while real requests are served, is
 * explained on a club-sized data set with sequential scans priced out of reach: a
 * sequential scan left in a plan means no index can serve that query, and it would
 * read the whole table on every request as the club grows. (At this size the planner
 * may still prefer a scan of a small table; the benchmark measures the real plans'
 * speed on the large data set.)
 */
const STAFF_PAGES = [
  "/view-pels",
  "/view-pels?event=EVENT",
  "/view-merchant-orders?event=EVENT",
  "/view-research?event=EVENT",
  "/view-letters",
  "/view-letters?q=lantern",
  "/view-letters?q=Quill",
  "/view-letters?tab=held",
  "/view-letters?tab=npc&q=lantern",
  "/letters?tab=box",
  "/tools",
  "/tools?tab=players&q=ha",
  "/tools?tab=cast",
  "/tools?tab=roles&q=mar",
  "/tools?tab=applications",
  "/emergency-contacts?q=el",
  "/attendance?event=EVENT",
  // The members' busiest page (the manager's own status per event), and the manager's own calendar feed (FEED).
  "/events",
  "FEED",
];

type PlanNode = { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] };

/** The sequential scans in a plan: each reads its whole table. */
function sequentialScans(node: PlanNode): string[] {
  return [
    ...(node["Node Type"] === "Seq Scan" ? [`Seq Scan on ${node["Relation Name"]}`] : []),
    ...(node.Plans ?? []).flatMap(sequentialScans),
  ];
}

const base = withTestDatabase();
const captured = new Map<string, unknown[]>();
let client: { query: (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };

beforeAll(async () => {
  overrideConfig({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-plans-")) });
  await seedDemo(base(), { members: 300, events: 10, pels: 2_000, orders: 1_000, letters: 800, research: 20 });
  // The same connection, logging each query the app sends from now on.
  // One connection (PGlite's), so the planner setting below applies to every EXPLAIN.
  client = (base() as unknown as { $client: typeof client }).$client;
  const logger = { logQuery: (query: string, params: unknown[]) => void captured.set(query, params) };
  const logged = (testDatabaseKind === "postgres"
    ? drizzlePg(client as never, { schema, logger })
    : drizzlePglite(client as never, { schema, logger })) as unknown as Database;
  // Not following the database's changes, the app keeps no reads in memory: every page runs every query it needs.
  const listen = () => Promise.reject(new Error("this test sees every query"));
  // Closing the logging copy closes (and on PostgreSQL drops) the test file's own database.
  const own = await databaseHandle();
  setDatabase({ db: logged, kind: testDatabaseKind, listen, holdLock: own.holdLock, close: () => own.close() });
}, 120_000);
// Started after the logging database is in place (hooks run in order).
const app = withAppServer();

describe("the staff pages on a club-sized data set", () => {
  it("reach every row through an index", async () => {
    expect(await database()).not.toBe(base());
    const manager = await signedInMember("manager");
    const groups = await (await fetch(`${app().url}/view-pels`, { headers: { Cookie: manager.cookie } })).text();
    const event = groups.match(/\?event=([0-9a-f-]{36})/)![1]!;
    captured.clear();
    for (const page of STAFF_PAGES) {
      const address = page === "FEED" ? await calendarFeedPath(manager.id) : page.replace("EVENT", event);
      const response = await fetch(app().url + address, { headers: { Cookie: manager.cookie } });
      expect(response.status, page).toBe(200);
      await response.text();
    }

    const reads = [...captured].filter(([query]) => /^\s*(select|with)\b/i.test(query));
    expect(reads.length).toBeGreaterThan(20);
    const problems: string[] = [];
    await client.query("set enable_seqscan = off", []);
    for (const [query, params] of reads) {
      const { rows } = await client.query(`explain (format json) ${query}`, params);
      const raw = rows[0]!["QUERY PLAN"];
      const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
      for (const scan of sequentialScans(plan[0]!.Plan)) problems.push(`${scan}: ${query}`);
    }
    expect(problems).toEqual([]);
    expect(config().dataDir).toContain("hopewell-plans-");
  });
});
