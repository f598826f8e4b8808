import type { Page } from "@playwright/test";
import { APPLICATION_TEXT_QUESTIONS } from "../app/game/application";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { addEvent, createMember, signInByPost, uniqueEmail } from "./helpers";

test.describe.configure({ timeout: 180_000 });

async function applicant(page: Page, firstName: string, lastName: string, preference: "Player" | "Cast") {
  // A new member, as a sign-up leaves them (signing up is tested in accounts.spec.ts).
  const email = uniqueEmail(firstName.toLowerCase());
  await createMember({ email, password: "Lantern#1877", first: firstName, last: lastName, role: "applicant" });
  await signInByPost(page, email, "Lantern#1877");
  await page.goto("/application");
  await page.getByLabel("Your Discord username").fill(`${firstName}_1877`);
  await page.getByLabel(new RegExp(`^${preference}`)).check();
  for (const question of APPLICATION_TEXT_QUESTIONS)
    await page.getByLabel(question.label, { exact: true }).fill("A considered answer.");
  await page.getByRole("button", { name: "Submit Application" }).click();
  await expect(page.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
  await page.context().clearCookies();
  return email;
}

async function chooseEvent(page: Page, title: string) {
  const value = await page.locator("#eventId option", { hasText: title }).getAttribute("value");
  await page.getByLabel("Event", { exact: true }).selectOption(value!);
}

test("a manager decides applications and records attendance; the new cast member reads the reviews", async ({
  page,
  browser,
  baseURL,
  managerState,
}, testInfo) => {
  const tag = testInfo.project.name === "desktop" ? "Desk" : "Phone";
  const castEmail = await applicant(page, `Silas${tag}`, "Marsh", "Cast");
  await applicant(page, `Lottie${tag}`, "Holt", "Player");

  const managerContext = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    acceptDownloads: true,
    storageState: managerState,
  });
  const manager = await managerContext.newPage();
  manager.on("dialog", (dialog) => void dialog.accept());

  await manager.goto("/tools?tab=applications");
  await expectAccessible(manager);
  await manager.getByRole("button", { name: `Accept Silas${tag} Marsh` }).click();
  await expect(manager.getByText(`Accepted Silas${tag} Marsh. The acceptance email is on its way`)).toBeVisible();
  await manager.getByRole("button", { name: `Reject Lottie${tag} Holt` }).click();
  await expect(manager.getByText(`Rejected Lottie${tag} Holt. No email is sent`)).toBeVisible();
  await expect(manager.getByRole("button", { name: `Accept Lottie${tag} Holt` })).toHaveCount(0);

  const title = `Deep Seam ${tag}`;
  await addEvent(manager, { title, date: "2025-03-14", status: "past" });

  await manager.goto("/attendance-tool");
  await manager.getByLabel("Find a member").fill(`Silas${tag}`);
  await manager.getByLabel(new RegExp(`Silas${tag} Marsh`)).check();
  await chooseEvent(manager, title);
  await manager.getByLabel("Cabin (optional)").selectOption("Arctic Fox");
  await manager.getByRole("button", { name: "Add Attendance" }).click();
  await expect(manager.getByText("Attendance added successfully!")).toBeVisible();
  await expect(manager.getByText("Attendance added successfully!")).toBeHidden({ timeout: 5_000 });
  await manager.getByLabel(new RegExp(`Silas${tag} Marsh`)).check();
  await chooseEvent(manager, title);
  await manager.getByRole("button", { name: "Add Attendance" }).click();
  await expect(
    manager.getByText("Failed to add attendance. The user might already be registered for this event."),
  ).toBeVisible();
  await expectAccessible(manager);

  await manager.goto("/attendance");
  await manager.getByRole("link", { name: title }).click();
  await expect(manager.getByRole("cell", { name: "Arctic Fox" })).toBeVisible();
  const download = manager.waitForEvent("download");
  await manager.getByRole("link", { name: `Export CSV for ${title}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${title} 2025-03-14 attendance.csv`);
  const csv = (await (await import("node:fs/promises")).readFile((await file.path())!, "utf8")).replace(/^\uFEFF/, "");
  expect(csv.trim().split("\n")).toEqual([
    "Last Name,First Name,Character Name,Cabin",
    `Marsh,Silas${tag},No character,Arctic Fox`,
  ]);
  await managerContext.close();

  // The accepted applicant asked to be cast: they can now read every review page.
  await signInByPost(page, castEmail, "Lantern#1877");
  for (const [path, heading] of [
    ["/tools", "Tools"],
    ["/attendance", "Attendance"],
    ["/view-pels", "Post-Event Letters"],
    ["/view-merchant-orders", "Merchant Orders"],
    ["/view-research", "Research Papers"],
    ["/view-letters", "Letters"],
  ]) {
    await page.goto(path!);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
  await page.goto("/attendance-tool");
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/emergency-contacts");
  await expect(page).toHaveURL(/\/$/);
});
