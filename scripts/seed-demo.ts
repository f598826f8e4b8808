/**
 * Fills the database named by the configuration (DATA_DIR's embedded database, or
 * DATABASE_URL) with realistic demo data:
 *
 *   npm run seed:demo                       a small club, for trying the site
 *   npm run seed:demo -- --large            the benchmark's data set (with its busiest pages: DEMO_BUSIEST)
 *   npm run seed:demo -- --members 500 --events 12 --pels 3000 --orders 800 --letters 400 --research 50
 *
 * With the embedded database, stop the site first: only one process may open DATA_DIR
 * (while it runs, this says so and exits).
 */
import "./settings";
import { parseArgs } from "node:util";
import { closeDatabase, database, openDatabase, setDatabase } from "~/platform/db/client.server";
import { cliConfig, fail, failOn } from "./cli";
import {
  DEMO_ACCOUNTS,
  DEMO_BUSIEST,
  DEMO_LARGE,
  DEMO_PASSWORD,
  DEMO_SMALL,
  demoIsSeeded,
  seedDemo,
  type DemoSize,
} from "~/ops/demo/seed.server";

const COUNTS = ["members", "events", "pels", "orders", "letters", "research"] as const;

async function main() {
  const { values } = parseArgs({
    options: {
      large: { type: "boolean", default: false },
      ...Object.fromEntries(COUNTS.map((name) => [name, { type: "string" as const }])),
    },
    strict: true,
  });
  const size: DemoSize = { ...(values.large ? DEMO_LARGE : DEMO_SMALL) };
  for (const name of COUNTS) {
    const given = values[name as keyof typeof values];
    if (typeof given !== "string") continue;
    const n = Number(given);
    if (!Number.isInteger(n) || n < 0 || n > 1_000_000) fail(`--${name} must be a whole number from 0 to 1000000`);
    size[name] = n;
  }
  if (size.members < 4) fail("--members must be at least 4 (the four demo accounts)");
  if (size.events < 1) fail("--events must be at least 1");

  const cfg = cliConfig();
  setDatabase(await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir }));
  try {
    const db = await database();
    if (await demoIsSeeded(db)) {
      console.log(`The demo data is already there (${DEMO_ACCOUNTS.manager} exists); nothing was added.`);
      return;
    }
    const started = performance.now();
    const made = await seedDemo(db, size, (line) => console.log(`  ${line}`), values.large ? DEMO_BUSIEST : undefined);
    console.log(
      `Seeded ${cfg.databaseUrl ? "PostgreSQL" : `the embedded database in ${cfg.dataDir}`} in ${((performance.now() - started) / 1000).toFixed(1)} s:`,
      made,
    );
    console.log(`Sign in as ${Object.values(DEMO_ACCOUNTS).join(", ")} with the password ${DEMO_PASSWORD}`);
  } finally {
    await closeDatabase();
  }
}

main().catch(failOn);
