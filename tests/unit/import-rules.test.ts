import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The import rules (.dependency-cruiser.mjs, run by `npm run lint:imports`), tried on imports
 * planted in files of their own inside the tree, as the check would find them anywhere; the
 * files are removed afterwards. The planted files alone are cruised (and what they import, two
 * steps deep), so the test takes seconds; the whole tree as it stands is cruised once.
 */
const run = promisify(execFile);
const CRUISER = path.resolve("node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const PLANTED = "zz-planted-import-rule";

type Violation = { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] };

async function violations(targets: string[], maxDepth?: number): Promise<Violation[]> {
  const args = [CRUISER, ...targets, "--config", ".dependency-cruiser.mjs", "--output-type", "json"];
  if (maxDepth !== undefined) args.push("--max-depth", String(maxDepth));
  // The check exits non-zero when it finds a violation; its report is on standard output either way.
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string }) => {
      if (!error.stdout) throw error;
      return { stdout: error.stdout };
    },
  );
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const plants = {
  // (a) infrastructure reaching up into a feature.
  platform: `app/platform/${PLANTED}.server.ts`,
  // (b) two features importing each other: members may import accounts, not the other way round.
  accounts: `app/features/accounts/${PLANTED}.ts`,
  members: `app/features/members/${PLANTED}.ts`,
};

describe("the import rules, on planted imports", () => {
  beforeAll(() => {
    fs.writeFileSync(
      plants.platform,
      `import { notDeletedAccount } from "~/features/accounts/account-deletion.server";\n\nexport const planted = notDeletedAccount;\n`,
    );
    fs.writeFileSync(
      plants.accounts,
      `import { fromMembers } from "~/features/members/${PLANTED}";\n\nexport const fromAccounts = () => fromMembers;\n`,
    );
    fs.writeFileSync(
      plants.members,
      `import { fromAccounts } from "~/features/accounts/${PLANTED}";\n\nexport const fromMembers = () => fromAccounts;\n`,
    );
  });
  afterAll(() => {
    for (const file of Object.values(plants)) fs.rmSync(file, { force: true });
  });

  it("reports an import from platform/ into a feature", async () => {
    const found = await violations([plants.platform], 1);
    expect(found.map(({ rule, from, to }) => [rule.name, from, to])).toEqual([
      ["core-imports-no-feature", plants.platform, "app/features/accounts/account-deletion.server.ts"],
    ]);
  }, 60_000);

  it("reports a cycle between two features, and the import the table does not allow", async () => {
    const found = await violations([plants.accounts, plants.members], 2);
    const names = found.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`);
    expect(names).toContain(`feature-accounts: ${plants.accounts} -> ${plants.members}`);
    expect(names.filter((name) => name.startsWith("no-circular: ")).length).toBeGreaterThan(0);
    expect(found.find(({ rule }) => rule.name === "no-circular")!.cycle!.map(({ name }) => name)).toEqual(
      expect.arrayContaining([plants.accounts, plants.members]),
    );
  }, 60_000);
});

// After the planted files are gone (a suite's afterAll runs before the next suite).
describe("the import rules, on the tree as it stands", () => {
  it("find nothing", async () => {
    expect(await violations(["app", "http"])).toEqual([]);
  }, 120_000);
});
