import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { IDS, OTHER_OLD_PASSWORD, PNG, RESEARCH_FILE, sampleExport, writeExport } from "../tests/fixtures/old-export";
import { expect, test } from "./fixtures";
import { signIn } from "./helpers";

/**
 * The old site's export imported into the running site (over its control socket, as an
 * operator would with `npm run import`), then used in the browser: a member signs in with
 * their old password and finds their character (with the events the old site counted) and
 * application; staff find their letter,
 * order, research paper and its file.
 *
 * It needs no server of its own: the import adds its members, events and entries beside what
 * other specs make on the run's first server, and the checks look only at what it imported. The
 * command runs as a process of its own because that is the operator's path being tested (it
 * finds the running site holding DATA_DIR and hands the work to it).
 */
test("a member of the old site signs in with their old password and finds what they had", async ({
  page,
  browser,
  managerState,
}) => {
  // The import command starts its own Node process (TypeScript through tsx) before the browser's part.
  test.setTimeout(120_000);
  const dir = writeExport(fs.mkdtempSync(path.join(os.tmpdir(), "hopewell-e2e-export-")), sampleExport());
  try {
    // The site holds DATA_DIR, so the command hands the import to it. A retry of this test finds
    // everything already imported and changes nothing (tests/http/import.test.ts checks that).
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/import.ts", dir], {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: "warn" },
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Imported ${dir} in one transaction.`);
    expect(run.stdout).toMatch(/^characters\s+[01]\s+0\s+[01]\s+0\s+2$/m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  await page.goto("/auth");
  await signIn(page, "bo.tanner@old.example", OTHER_OLD_PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/profile");
  await expect(page.getByText("bo.tanner@old.example")).toBeVisible();
  await page.goto("/profile?tab=character");
  await expect(
    page.getByRole("heading", { name: "Silas Crane" }).or(page.getByText("Silas Crane")).first(),
  ).toBeVisible();
  await expect(page.getByText("Hunter / Trapper")).toBeVisible();
  // The old site counted 3 events, Lantern Night's attendance row among them: 3, and the page says where they come from.
  await expect(page.getByTestId("events-survived")).toHaveText("3");
  await expect(page.getByText("(including the 3 events counted on the club's old site)")).toBeVisible();
  await page.goto("/profile?tab=application");
  await expect(page.getByText("Bo's answer 1", { exact: true })).toBeVisible();

  // Staff see the imported PEL, order and research paper under their events, by the member's name.
  const staff = await browser.newContext({
    extraHTTPHeaders: test.info().project.use.extraHTTPHeaders,
    storageState: managerState,
  });
  const manager = await staff.newPage();
  await manager.goto(`/view-pels?event=${IDS.lanternNight}`);
  // A letter's answers are opened on demand.
  await manager
    .getByText(/^Read the letter from /)
    .first()
    .click();
  await expect(manager.getByText("The lanterns going out, one by one.")).toBeVisible();
  await expect(manager.getByText("Bo Tanner").first()).toBeVisible();
  await manager.goto(`/view-merchant-orders?event=${IDS.silverFever}`);
  await expect(manager.getByText("$58.50").first()).toBeVisible();
  await manager.goto(`/view-research?event=${IDS.lanternNight}`);
  await manager.getByText("Read the notes and sources").first().click();
  await expect(manager.getByText("The ore glows when the lamps go out.")).toBeVisible();
  const link = manager.getByRole("link", { name: new RegExp(RESEARCH_FILE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) });
  const file = await manager.request.get((await link.getAttribute("href"))!);
  expect(file.status()).toBe(200);
  expect(Buffer.from(await file.body())).toEqual(PNG);
  await manager.goto("/view-letters");
  await expect(manager.getByText("Sheriff Cole").first()).toBeVisible();
  await staff.close();
});
