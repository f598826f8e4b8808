import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";
import { addEvent, createMember } from "./helpers";

test.describe.configure({ timeout: 120_000 });

// One width: the lists are the site's own, and the two widths would add the same names side by side.
test.skip(({ isMobile }) => isMobile, "runs at desktop width: the lists are shared by every test");

test("a manager adds a cabin and a job for one faction; the attendance tool gives the cabin, the character builder offers the job to that faction only", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}) => {
  const tag = `${Date.now() % 100_000}`;
  const cabin = `Bear Den ${tag}`;
  const job = `Sheriff ${tag}`;
  await withSession(page, managerState);

  await page.goto("/tools/club/cabins");
  const newCabin = page.getByRole("group", { name: "Add a cabin" });
  await newCabin.getByLabel("Name").fill(cabin);
  await newCabin.getByLabel("Place in the order").fill("1");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save the cabins" }).click();
  await expect(page.getByText(/Saved: the cabins are now version \d+\./)).toBeVisible();
  await expect(page.getByRole("group", { name: "Cabin 1" }).getByLabel("Name")).toHaveValue(cabin);

  await page.goto("/tools/club/factions");
  const newJob = page.getByRole("group", { name: "Add a job" });
  await newJob.getByLabel("Name").fill(job);
  await newJob.getByLabel("Open to").selectOption({ label: "Homesteader" });
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save factions and jobs" }).click();
  await expect(page.getByText(/Saved: the factions and jobs are now version \d+\./)).toBeVisible();

  // The attendance tool offers the new cabin first, and records it.
  await createMember({ first: "Hattie", last: `Den${tag}` });
  const title = `Den Night ${tag}`;
  await addEvent(page, { title, date: "2025-08-15", status: "past" });
  await page.goto("/attendance-tool");
  await page.getByLabel("Event", { exact: true }).selectOption({ label: `${title} (Friday, August 15, 2025)` });
  await page.getByLabel("Find a member").fill(`Den${tag}`);
  await page.getByLabel(new RegExp(`Hattie Den${tag}`)).check();
  await expect(page.getByLabel("Cabin (optional)").locator("option").nth(1)).toHaveText(cabin);
  await page.getByLabel("Cabin (optional)").selectOption(cabin);
  await page.getByRole("button", { name: "Add Attendance" }).click();
  await expect(page.getByText("Attendance added successfully!")).toBeVisible();
  await expect(page.getByText(`No character · ${cabin}`)).toBeVisible();

  // A player sees the job only once the faction it is open to is chosen.
  const player = await browser.newContext({ baseURL, storageState: playerState });
  const builder = await player.newPage();
  await builder.goto("/character");
  await builder.getByLabel("Faction").selectOption("Homesteader");
  await expect(builder.getByLabel("Job").locator("option", { hasText: job })).toHaveCount(1);
  await builder.getByLabel("Job").selectOption(job);
  await builder.getByLabel("Faction").selectOption("US Survey Corp");
  await expect(builder.getByLabel("Job")).toHaveValue("");
  await expect(builder.getByLabel("Job").locator("option", { hasText: job })).toHaveCount(0);
  await expect(builder.getByText(`${job} only to the Homesteader`)).toBeVisible();
  await player.close();
});
