import type { Browser, Locator, Page } from "@playwright/test";
import { E2E_PLAYERS } from "../playwright.config";
import { expectAccessible } from "./axe";
import { expect, test, type SignedInState } from "./fixtures";
import { addEvent, createMember, e2eManager } from "./helpers";

test.describe.configure({ timeout: 90_000 });

async function asManager(
  browser: Browser,
  page: Page,
  baseURL: string | undefined,
  managerState: SignedInState,
  javaScriptEnabled = true,
) {
  const context = await browser.newContext({
    baseURL,
    viewport: page.viewportSize()!,
    isMobile: test.info().project.name === "phone",
    javaScriptEnabled,
    storageState: managerState,
  });
  return { context, page: await context.newPage() };
}

/** Every word (a run of letters and digits) inside `root` that the layout split across two lines. */
function brokenWords(root: Locator) {
  return root.evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode as Text;
      for (const match of node.data.matchAll(/[\p{L}\p{N}]+/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

/** Every tool beside the tabs a manager has, in the menu's order. */
const ALL_TOOLS = [
  "View Attendance",
  "View PELs",
  "View Merchant Orders",
  "View Research Papers",
  "View Letters",
  "View Costume Photos",
  "Manage Events",
  "Attendance Tool",
  "Emergency Contacts",
  "Event-Day Sheets",
  "The Club",
  "Outbox",
];

test("on a phone every tool is in reach without scrolling sideways; on a desktop the menu is a sidebar as tall as its items", async ({
  browser,
  page,
  baseURL,
  isMobile,
  managerState,
}) => {
  const { context, page: manager } = await asManager(browser, page, baseURL, managerState);
  await manager.goto("/tools?tab=roles");
  const menu = manager.getByRole("navigation", { name: "Tools" });
  const section = manager.locator("section[aria-labelledby=tool-title]");
  await expect(manager.getByRole("heading", { level: 2, name: "Roles" })).toBeVisible();
  const viewport = manager.viewportSize()!;
  if (isMobile) {
    // The tool's own heading is still on the first screen.
    await expect(manager.getByRole("heading", { level: 2, name: "Roles" })).toBeInViewport();
    // Every tab is in sight, the current one marked.
    for (const tab of ["Player List", "Cast List", "Applications", "Roles", "Audit Log"]) {
      const box = (await menu.getByRole("link", { name: tab }).boundingBox())!;
      expect(box.x + box.width, tab).toBeLessThanOrEqual(viewport.width);
    }
    await expect(menu.getByRole("link", { name: "Roles" })).toHaveAttribute("aria-current", "page");
    // Nothing scrolls sideways, and every other tool is reached by scrolling down only: wholly
    // in view, its name whole, a finger's height.
    const more = menu.getByRole("list", { name: "More tools" });
    expect(await more.evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
    expect(await manager.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    for (const tool of ALL_TOOLS) {
      const link = more.getByRole("link", { name: new RegExp(`^${tool}( \\(\\d+ new\\))?$`) });
      await link.evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + scrollY - 200));
      expect(await manager.evaluate(() => scrollX)).toBe(0);
      await expect(link, tool).toBeInViewport({ ratio: 1 });
      const box = (await link.boundingBox())!;
      expect(box.height, tool).toBeGreaterThanOrEqual(44);
      expect(await brokenWords(link), tool).toEqual([]);
    }
    await menu.getByRole("link", { name: "Emergency Contacts" }).click();
    await expect(manager).toHaveURL(/\/emergency-contacts$/);
  } else {
    // However long the tool, the menu stays as tall as its items, beside it.
    await section.evaluate((element) => void element.style.setProperty("min-height", "2400px"));
    const menuBox = (await menu.boundingBox())!;
    const sectionBox = (await section.boundingBox())!;
    const last = (await menu.getByRole("link", { name: "Outbox" }).boundingBox())!;
    expect(menuBox.y + menuBox.height - (last.y + last.height)).toBeLessThan(24);
    expect(menuBox.height).toBeLessThan(sectionBox.height / 2);
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(sectionBox.x);
    expect(Math.abs(menuBox.y - sectionBox.y)).toBeLessThan(2);
    // The tabs come first, as a column.
    const tabs = await Promise.all(
      ["Player List", "Cast List", "Applications", "Roles", "Audit Log"].map(
        async (tab) => (await menu.getByRole("link", { name: tab }).boundingBox())!,
      ),
    );
    for (let i = 1; i < tabs.length; i++) expect(tabs[i]!.y).toBeGreaterThan(tabs[i - 1]!.y);
  }
  await manager.goto("/tools?tab=roles");
  await expectAccessible(manager);
  await context.close();
});

test("emergency contacts are cards with tap-to-call and email links, names first and no word broken", async ({
  browser,
  page,
  baseURL,
  isMobile,
  managerState,
}) => {
  const { context, page: manager } = await asManager(browser, page, baseURL, managerState);
  // The manager is a member too: give them a contact, then look them up as in an emergency.
  await manager.goto("/profile");
  await manager.getByRole("link", { name: /^(Add emergency contact|Edit)$/ }).click();
  await manager.getByLabel("Contact name").fill("Martha Josephine Tanner-Whitcombe");
  await manager.getByLabel("Contact phone").fill("(860) 555-0142");
  await manager.getByRole("button", { name: "Save", exact: true }).click();
  await expect(manager.getByText("Changes saved successfully!")).toBeVisible();

  const { email } = e2eManager();
  const player = E2E_PLAYERS[test.info().project.name as keyof typeof E2E_PLAYERS];
  await manager.goto(`/emergency-contacts?q=${encodeURIComponent(email)}`);
  await expect(manager.getByText(/^1 member matching/)).toBeVisible();
  const card = manager.getByRole("listitem").filter({ has: manager.getByRole("heading", { name: "Ada Boss" }) });
  await expect(card).toBeVisible();
  await expect(
    card.getByRole("link", { name: "Call Martha Josephine Tanner-Whitcombe on +1 860 555 0142" }),
  ).toHaveAttribute("href", "tel:+18605550142");
  await expect(card.getByRole("link", { name: email })).toHaveAttribute("href", `mailto:${email}`);
  await expect(card.getByText("Martha Josephine Tanner-Whitcombe", { exact: true })).toBeVisible();
  // The member's name is the card's most prominent line.
  const nameSize = await card
    .getByRole("heading", { name: "Ada Boss" })
    .evaluate((h) => Number.parseFloat(getComputedStyle(h).fontSize));
  const emailSize = await card
    .getByRole("link", { name: email })
    .evaluate((a) => Number.parseFloat(getComputedStyle(a).fontSize));
  expect(nameSize).toBeGreaterThan(emailSize);
  // A tap target a finger can hit.
  const call = (await card.getByRole("link", { name: /^Call / }).boundingBox())!;
  expect(call.height).toBeGreaterThanOrEqual(44);
  expect(await brokenWords(card)).toEqual([]);
  expect(await card.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  if (isMobile) expect((await card.boundingBox())!.width).toBeGreaterThan(manager.viewportSize()!.width * 0.75);

  // A member with no contact says so on their card.
  await manager.goto(`/emergency-contacts?q=${encodeURIComponent(player.email)}`);
  const other = manager.getByRole("listitem").filter({ hasText: player.email });
  await expect(other.getByRole("heading", { level: 2 })).toBeVisible();
  await expect(other.getByRole("link", { name: player.email })).toHaveAttribute("href", `mailto:${player.email}`);
  expect(await brokenWords(manager.getByRole("list").filter({ has: other }))).toEqual([]);
  await expectAccessible(manager);
  await context.close();
});

test("cancelling the role dialog puts the dropdown back to the member's role", async ({
  browser,
  page,
  baseURL,
  managerState,
}) => {
  const { context, page: manager } = await asManager(browser, page, baseURL, managerState);
  const player = E2E_PLAYERS[test.info().project.name as keyof typeof E2E_PLAYERS];
  await manager.goto(`/tools?tab=roles&q=${encodeURIComponent(player.email)}`);
  await expect(manager.getByText("1 member matching")).toBeVisible();
  const select = manager.getByRole("combobox", { name: /^Role of Wyatt / });
  await expect(select).toHaveValue("player");
  await select.selectOption("cast");
  let question = "";
  manager.once("dialog", (dialog) => {
    question = dialog.message();
    void dialog.dismiss();
  });
  await manager.getByRole("button", { name: /^Set role for Wyatt / }).click();
  await expect.poll(() => question).toBe("Are you sure you want to change this user's role to cast?");
  await expect(select).toHaveValue("player");
  await expect(manager.getByText("Role changed to")).toHaveCount(0);
  // Nothing was saved either.
  await manager.reload();
  await expect(manager.getByRole("combobox", { name: /^Role of Wyatt / })).toHaveValue("player");
  await context.close();
});

test("without JavaScript a role change is confirmed on a page that names the member, and Cancel changes nothing", async ({
  browser,
  page,
  baseURL,
  managerState,
}) => {
  const { context, page: manager } = await asManager(browser, page, baseURL, managerState, false);
  const player = E2E_PLAYERS[test.info().project.name as keyof typeof E2E_PLAYERS];
  const name = `Wyatt ${test.info().project.name === "desktop" ? "Tanner" : "Bright"}`;
  await manager.goto(`/tools?tab=roles&q=${encodeURIComponent(player.email)}`);
  await manager.getByRole("combobox", { name: `Role of ${name}` }).selectOption("cast");
  await manager.getByRole("button", { name: `Set role for ${name}` }).click();
  await expect(manager.getByRole("heading", { name: "Please confirm" })).toBeVisible();
  await expect(manager.getByText(`Are you sure you want to change ${name}'s role from Player to Cast?`)).toBeVisible();
  await expect(manager.getByRole("button", { name: "Yes, make them Cast" })).toBeVisible();
  await manager.getByRole("link", { name: "Cancel" }).click();
  await expect(manager.getByText("1 member matching")).toBeVisible();
  await expect(manager.getByRole("combobox", { name: `Role of ${name}` })).toHaveValue("player");
  await context.close();
});

test("on a phone the attendance tool answers under the button, naming the member and the event, and lists who is registered", async ({
  browser,
  page,
  baseURL,
  managerState,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "what is in view on a phone's screen");
  const tag = `Notice${Date.now() % 100_000}`;
  await createMember({ first: "Ada", last: tag });
  const { context, page: manager } = await asManager(browser, page, baseURL, managerState);
  const title = `Gate Night ${tag}`;
  const eventLabel = `${title} (Friday, August 14, 2026)`;
  await addEvent(manager, { title, date: "2026-08-14", status: "future" });
  await manager.goto("/attendance-tool");
  await manager.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel });
  // The list follows the event chosen.
  const registered = manager.getByRole("region", { name: "Registered" });
  await expect(registered).toContainText(`${eventLabel}: nobody yet`);
  await manager.getByLabel("Find a member").fill(tag);
  await manager.getByLabel(new RegExp(`Ada ${tag}`)).check();
  await manager.getByLabel("Cabin (optional)").selectOption("Watchtower");
  const button = manager.getByRole("button", { name: "Add Attendance" });
  await button.scrollIntoViewIfNeeded();
  await button.click();
  // The answer is where the press was: under the button, wholly on the screen, saying who and where.
  const notice = manager.getByRole("status").filter({ hasText: "Attendance added successfully!" });
  await expect(notice).toContainText(`Attendance added successfully! Ada ${tag} is registered for ${eventLabel}.`);
  await expect(notice).toBeInViewport({ ratio: 1 });
  const pressed = (await button.boundingBox())!;
  const answer = (await notice.boundingBox())!;
  expect(answer.y).toBeGreaterThanOrEqual(pressed.y + pressed.height);
  expect(answer.y - (pressed.y + pressed.height)).toBeLessThan(60);
  // Below the tool, the event's registrations: the member just added, in their cabin.
  await expect(registered).toContainText(`${eventLabel}: 1 registered`);
  const row = registered.getByRole("listitem").filter({ hasText: `Ada ${tag}` });
  await expect(row).toContainText("Just added");
  await expect(row).toContainText("No character · Watchtower");
  expect((await registered.boundingBox())!.y).toBeGreaterThan(answer.y + answer.height);
  expect(await manager.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  await expectAccessible(manager);
  // The notice goes after 3 seconds, as every saved notice does; the list stays.
  await expect(notice).toBeHidden({ timeout: 5_000 });
  await expect(row).toBeVisible();

  // The name leads to the member's page, which shows their attendance with the cabin.
  await row.getByRole("link", { name: `Ada ${tag}` }).click();
  await expect(manager.getByRole("heading", { level: 1, name: `Ada ${tag}` })).toBeVisible();
  const attendance = manager.getByRole("region", { name: "Attendance" });
  await expect(attendance).toContainText(new RegExp(`${title}\\s*Friday, August 14, 2026`));
  await expect(attendance).toContainText("Cabin: Watchtower");
  await expect(manager.getByRole("region", { name: "Character" })).toContainText(`Ada ${tag} has no character yet.`);
  expect(await manager.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  await expectAccessible(manager);
  await context.close();
});
