import fs from "node:fs";
import { formatEventDate } from "../app/lib/dates";
import { readZip } from "../tests/helpers/zip";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { addEvent, createMember, screenshots, signInByPost, uniqueEmail } from "./helpers";

// Three CAPTCHA solves and an export built in the background.
test.describe.configure({ timeout: 150_000 });

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("a member takes out their data as a ZIP, then deletes their account and can no longer sign in", async ({
  page,
  browser,
  baseURL,
  managerState,
}, testInfo) => {
  const width = testInfo.project.name;
  const eventTitle = `Leaving Day (${width} ${Date.now()})`;
  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await addEvent(manager, { title: eventTitle, date: "2025-09-12", status: "past" });
  await managerContext.close();

  const email = uniqueEmail("leave");
  const password = "Lantern#1877";
  await createMember({ email, password, first: "Obadiah", last: "Wexley", role: "applicant" });
  await signInByPost(page, email, password);

  // Something of theirs with a file.
  await page.goto("/research");
  await page
    .getByLabel("Event", { exact: true })
    .selectOption({ label: `${eventTitle} (${formatEventDate("2025-09-12")})` });
  await page.getByLabel("Sources", { exact: true }).fill("The miner's diary.");
  await page.getByLabel("Research notes").fill("Something knocks beneath shaft nine.");
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "shaft.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Submit Research" }).click();
  await expect(page.getByRole("heading", { name: "Research Submitted!" })).toBeVisible();

  // Take it out: asked for, prepared in the background, then downloaded.
  await page.goto("/profile");
  await page.getByRole("navigation", { name: "Profile sections" }).getByRole("link", { name: "My data" }).click();
  await expect(page).toHaveURL(/\/profile\/data$/);
  await expect(page.getByRole("heading", { level: 2, name: "Take out your data" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Delete my account" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Prepare my data" }).click();
  await expect(page.getByText("Your data is being prepared")).toBeVisible();
  const downloadLink = page.getByRole("link", { name: /Download my data/ });
  await expect(async () => {
    await page.goto("/profile/data");
    await expect(downloadLink).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await screenshots(page, [1280, 390], (px) => `/tmp/profile-data-${px}.png`);
  const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^hopewell-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = await readZip(fs.readFileSync((await download.path())!));
  const json = JSON.parse(zip.get("data.json")!.toString("utf8"));
  expect(json.profile).toMatchObject({ email, firstName: "Obadiah", lastName: "Wexley" });
  expect(json.researchPapers).toEqual([
    expect.objectContaining({ research: "Something knocks beneath shaft nine.", fileName: "shaft.png" }),
  ]);
  expect(zip.get(json.researchPapers[0].fileInThisZip)).toEqual(PNG);
  expect(json.signInHistory.length).toBeGreaterThan(0);

  // Leave: a wrong password is refused, the right one deletes the account. Its button has the
  // danger style (blood red), unlike "Prepare my data" above it.
  await expect(page.getByRole("button", { name: "Delete my account" })).toHaveCSS("color", "rgb(224, 96, 90)");
  await expect(page.getByRole("button", { name: "Prepare a new copy" })).toHaveCSS("color", "rgb(224, 180, 88)");
  await page.getByLabel("Your password", { exact: true }).fill("Not-my-password-1");
  await page.getByLabel(/I understand that my account/).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("Your current password is not correct")).toBeVisible();
  await page.getByLabel("Your password", { exact: true }).fill(password);
  await page.getByLabel(/I understand that my account/).check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByRole("heading", { level: 1, name: "Account deleted" })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, [1280, 390], (px) => `/tmp/account-deleted-${px}.png`);

  // Signed out, and signing in again fails.
  await page.goto("/profile/data");
  await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  await page.goto("/auth");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.locator("altcha-widget label", { hasText: "I'm not a robot" }).click();
  await expect(page.locator('altcha-widget .altcha[data-state="verified"]')).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});
