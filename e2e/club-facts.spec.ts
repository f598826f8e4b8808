import type { Browser, Page } from "@playwright/test";
import { daysBefore } from "../app/game/costume";
import { clubToday, formatEventDate } from "../app/lib/dates";
import { PEL_QUESTIONS } from "../app/game/pel";
import { expect, test } from "./fixtures";
import { addEvent, signIn } from "./helpers";
import { startOwnServer, type OwnServer } from "./own-server";

// A manager changes the season's facts in the browser and a player sees each at once, while what
// the player wrote before still reads as written. The facts are every visitor's: on a server of
// this spec's own, so the other specs' forms and pages stay as the site shipped them.
test.describe.configure({ timeout: 240_000, mode: "serial" });
test.skip(({ isMobile }) => isMobile, "one width: the club's facts are the server's, shared by both widths");

const PASSWORD = "Lantern#1877";
const MANAGER = {
  first: "Hattie",
  last: "Ledger",
  email: "hattie.ledger@e2e.test",
  password: PASSWORD,
  role: "manager" as const,
};
const PLAYER = {
  first: "Wyatt",
  last: "Cole",
  email: "wyatt.cole@e2e.test",
  password: PASSWORD,
  role: "player" as const,
};

const PAST = { title: "Ember Night", date: "2025-08-15" };
const COMING = { title: "Frost Muster", date: daysBefore(clubToday(), -40) };
const eventLabel = (event: { title: string; date: string }) => `${event.title} (${formatEventDate(event.date)})`;

const FIRST_QUESTION = PEL_QUESTIONS[0].label;
const REWORDED = "What frightened you most this weekend, and when?";

let server: OwnServer;
test.beforeAll(async () => {
  server = await startOwnServer({
    name: "club-facts",
    env: { REQUIRE_MANAGER_2FA: "false" },
    members: [MANAGER, PLAYER],
  });
});
test.afterAll(async () => {
  await server?.stop();
});

async function signedIn(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.site });
  const page = await context.newPage();
  await page.goto("/auth");
  await signIn(page, who.email, who.password);
  await expect(page).toHaveURL(/\/$/);
  return page;
}

/** Saves a list editor's form and waits for its notice. */
async function save(page: Page, button: string) {
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved: / })).toBeVisible();
}

test("a manager changes the season's facts; a player sees each at once, and what was written before reads as written", async ({
  browser,
}) => {
  const manager = await signedIn(browser, MANAGER);
  await addEvent(manager, { ...PAST, status: "past" });
  await addEvent(manager, { ...COMING, status: "future" });

  // Before any change, the player writes a post-event letter and orders two pieces of meat at $3.00.
  const player = await signedIn(browser, PLAYER);
  await player.goto("/pels");
  await player.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel(PAST) });
  await player.getByLabel("Character name").fill("Wyatt Cole");
  for (const question of PEL_QUESTIONS)
    await player.getByLabel(question.label, { exact: true }).fill(`About ${question.key}: the lanterns went out.`);
  await player.getByRole("button", { name: "Submit Letter" }).click();
  await expect(player.getByRole("heading", { name: "Letter Received!" })).toBeVisible();
  await player.goto("/merchant-orders");
  await player.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel(COMING) });
  await player.getByLabel("Quantity of Meat").fill("2");
  await player.getByRole("button", { name: "Place Order" }).click();
  await expect(player.getByRole("heading", { name: "Order Placed!" })).toBeVisible();

  // The manager: lamp oil on the price list and meat dearer; a cabin; a reworded question; an FAQ
  // entry; a job for one faction; a new welcome.
  await manager.goto("/tools/club");
  await manager.getByRole("link", { name: "The Merchant" }).click();
  await manager.getByRole("group", { name: "Item 1", exact: true }).getByLabel("Price in dollars").fill("3.50");
  const item = manager.getByRole("group", { name: "Add an item" });
  await item.getByLabel("Name").fill("Lamp Oil");
  await item.getByLabel("Price in dollars").fill("4.25");
  await item.getByLabel("Sold as one").fill("flask");
  await save(manager, "Save the price list");

  await manager.goto("/tools/club/cabins");
  await manager.getByRole("group", { name: "Add a cabin" }).getByLabel("Name").fill("Coyote Den");
  await save(manager, "Save the cabins");

  await manager.goto("/tools/club/pel-questions");
  await manager.getByRole("group", { name: "Question 1", exact: true }).getByLabel("Question").fill(REWORDED);
  await manager.getByRole("button", { name: "Preview" }).click();
  await expect(manager.getByRole("region", { name: "Preview: not saved yet" })).toContainText(REWORDED);
  await save(manager, "Save the letter's questions");

  await manager.goto("/tools/club/faq");
  const entry = manager.getByRole("group", { name: "Add a question" });
  await entry.getByLabel("Question").fill("Where do we park?");
  await entry.getByLabel("Answer").fill("In the **lower** field, by the gate.");
  await save(manager, "Save the FAQ");

  await manager.goto("/tools/club/factions");
  const job = manager.getByRole("group", { name: "Add a job" });
  await job.getByLabel("Name").fill("Surveyor's Mate");
  await job.getByLabel("Open to").selectOption({ label: "US Survey Corp" });
  await save(manager, "Save factions and jobs");

  await manager.goto("/tools/club/welcome");
  await manager.getByLabel("Welcome", { exact: true }).fill("The mine has reopened. *Bring a lantern.*");
  await save(manager, "Save the welcome");

  // The player sees each at once.
  await player.goto("/merchant-orders");
  await player.getByLabel("Event", { exact: true }).selectOption({ label: eventLabel(COMING) });
  const lampOil = player.getByRole("row").filter({ hasText: "Lamp Oil" });
  await expect(lampOil).toContainText("$4.25");
  await expect(player.getByRole("row").filter({ hasText: /^Meat/ })).toContainText("$3.50");

  await player.goto("/pels");
  await expect(player.getByLabel(REWORDED, { exact: true })).toBeVisible();
  await expect(player.getByLabel(FIRST_QUESTION, { exact: true })).toHaveCount(0);

  await player.goto("/");
  await expect(player.getByRole("region", { name: "Welcome to Hopewell" })).toContainText("The mine has reopened.");
  await expect(player.getByRole("region", { name: "Welcome to Hopewell" }).locator("em")).toHaveText(
    "Bring a lantern.",
  );
  const faq = player.getByRole("region", { name: "Frequently Asked Questions" });
  await faq.locator("summary", { hasText: "Where do we park?" }).click();
  await expect(faq.getByText("by the gate.")).toBeVisible();

  await player.goto("/character");
  await player.getByLabel("Faction").selectOption("Homesteader");
  await expect(player.getByLabel("Job").locator("option", { hasText: "Surveyor's Mate" })).toHaveCount(0);
  await player.getByLabel("Faction").selectOption("US Survey Corp");
  await expect(player.getByLabel("Job").locator("option", { hasText: "Surveyor's Mate" })).toHaveCount(1);

  await manager.goto("/attendance-tool");
  await expect(manager.getByLabel("Cabin (optional)").locator("option", { hasText: "Coyote Den" })).toHaveCount(1);

  // What was written before the change reads as written: the order at $3.00 a piece, the letter
  // under the question it answered.
  await player.goto("/profile/record");
  const order = player.getByRole("article", { name: `Merchant order · ${COMING.title}` });
  await expect(order).toContainText("$6.00");
  await order.getByRole("link").click();
  await expect(player.getByRole("main")).toContainText("Meat");
  await expect(player.getByRole("main")).toContainText("$3.00 a piece");
  await expect(player.getByRole("main")).not.toContainText("$3.50");
  await player.goto("/profile/record");
  await player
    .getByRole("article", { name: `Post-event letter · ${PAST.title}` })
    .getByRole("link")
    .click();
  await expect(player.getByRole("main")).toContainText(FIRST_QUESTION);
  await expect(player.getByRole("main")).not.toContainText(REWORDED);

  // The FAQ's history brings back the list before the change; the audit log shows both saves,
  // each with what it took away and added.
  await manager.goto("/tools/club/faq");
  await manager.getByRole("button", { name: "Bring back the starting FAQ" }).click();
  await expect(manager.getByText("Version 0 is back, saved as version 2.")).toBeVisible();
  await player.goto("/");
  await expect(player.getByText("Where do we park?")).toHaveCount(0);

  await manager.goto("/tools?tab=audit");
  const saves = manager
    .getByRole("listitem")
    .filter({ hasText: "changed the club's facts" })
    .filter({ hasText: "The FAQ" });
  await expect(saves).toHaveCount(2);
  const restored = saves.filter({ hasText: "bringing back version 0" });
  await restored.getByText("What changed").click();
  await expect(restored.getByText("Before")).toBeVisible();
  await expect(restored).toContainText("Where do we park?: In the **lower** field, by the gate.");
  const added = saves.filter({ hasNotText: "bringing back" });
  await added.getByText("What changed").click();
  await expect(added.getByText("After")).toBeVisible();
  await expect(added).toContainText("Where do we park?");

  await manager.context().close();
  await player.context().close();
});
