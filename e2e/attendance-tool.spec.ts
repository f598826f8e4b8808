import type { Browser, Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, test, withSession, type SignedInState } from "./fixtures";
import { addEvent, createMember } from "./helpers";

test.describe.configure({ timeout: 120_000 });

/** A manager's page; without JavaScript when asked (signing in needs it for the CAPTCHA, so the signed-in cookies are carried over). */
async function managerPage(
  browser: Browser,
  baseURL: string,
  page: Page,
  managerState: SignedInState,
  javaScriptEnabled: boolean,
): Promise<Page> {
  if (javaScriptEnabled) {
    await withSession(page, managerState);
    return page;
  }
  const context = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    javaScriptEnabled: false,
    storageState: managerState,
  });
  return context.newPage();
}

async function search(manager: Page, term: string, javaScriptEnabled: boolean) {
  await manager.getByLabel("Find a member").fill(term);
  if (!javaScriptEnabled) await manager.getByRole("button", { name: "Search" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test(`after an add the next member starts with no cabin, and an applicant needs confirming (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async ({
    page,
    browser,
    baseURL,
    managerState,
  }, testInfo) => {
    const tag = `${testInfo.project.name === "desktop" ? "Desk" : "Phone"}${javaScriptEnabled ? "Js" : "Plain"}${Date.now() % 100_000}`;
    // Three commands at once: each starts a Node process of its own.
    await Promise.all([
      createMember({ first: "Ada", last: `Fox${tag}` }),
      createMember({ first: "Bo", last: `Plain${tag}` }),
      createMember({ first: "Cy", last: `Hopeful${tag}`, role: "applicant" }),
    ]);
    const manager = await managerPage(browser, baseURL!, page, managerState, javaScriptEnabled);
    const title = `Cabin Night ${tag}`;
    await addEvent(manager, { title, date: "2025-07-18", status: "past" });

    await manager.goto("/attendance-tool");
    const event = manager.getByLabel("Event", { exact: true });
    await event.selectOption({ label: `${title} (Friday, July 18, 2025)` });
    const eventId = await event.inputValue();
    await search(manager, `Fox${tag}`, javaScriptEnabled);
    await manager.getByLabel(new RegExp(`Ada Fox${tag}`)).check();
    await manager.getByLabel("Cabin (optional)").selectOption("Arctic Fox");
    await manager.getByRole("button", { name: "Add Attendance" }).click();
    await expect(manager.getByText("Attendance added successfully!")).toBeVisible();
    // The member and the cabin are cleared for the next one; the event stays chosen.
    await expect(manager.getByLabel("Cabin (optional)")).toHaveValue("");
    await expect(manager.getByLabel(new RegExp(`Ada Fox${tag}`))).not.toBeChecked();
    await expect(event).toHaveValue(eventId);

    await search(manager, `Plain${tag}`, javaScriptEnabled);
    await manager.getByLabel(new RegExp(`Bo Plain${tag}`)).check();
    await expect(event).toHaveValue(eventId);
    await expect(manager.getByLabel("Cabin (optional)")).toHaveValue("");
    await manager.getByRole("button", { name: "Add Attendance" }).click();
    await expect(manager.getByText("Attendance added successfully!")).toBeVisible();

    // An applicant: nothing is recorded until the manager says "Register anyway".
    await search(manager, `Hopeful${tag}`, javaScriptEnabled);
    await manager.getByLabel(new RegExp(`Cy Hopeful${tag}`)).check();
    await manager.getByLabel("Cabin (optional)").selectOption("Camping");
    await manager.getByRole("button", { name: "Add Attendance" }).click();
    const warning = manager.getByRole("alert").filter({ hasText: "still an applicant" });
    await expect(warning).toContainText(
      `Cy Hopeful${tag} is still an applicant: their application has not been accepted. Nothing was recorded. Register Cy Hopeful${tag} anyway?`,
    );
    await expect(manager.getByText("Attendance added successfully!")).toHaveCount(0);
    if (javaScriptEnabled) await expectAccessible(manager); // axe runs inside the page
    await manager.getByRole("button", { name: "Register anyway" }).click();
    await expect(manager.getByText("Attendance added successfully!")).toBeVisible();

    // What was recorded: Ada in Arctic Fox, Bo with no cabin, Cy in Camping.
    await manager.goto(`/attendance?event=${eventId}`);
    const rows = manager.getByRole("row");
    await expect(rows.filter({ hasText: `Ada Fox${tag}` })).toContainText("Arctic Fox");
    await expect(rows.filter({ hasText: `Bo Plain${tag}` })).toContainText("Not assigned");
    await expect(rows.filter({ hasText: `Cy Hopeful${tag}` })).toContainText("Camping");
  });
}
