import { PEL_QUESTIONS } from "../app/game/pel";
import { formatEventDate } from "../app/lib/dates";
import { expectAccessible } from "./axe";
import { E2E_PLAYERS } from "../playwright.config";
import { addAttendance, addEvent } from "./helpers";
import { expect, test, withSession } from "./fixtures";

test.describe.configure({ timeout: 180_000 });

/** A phone's screen, for the checks of what is in view there (this file runs at desktop width). */
const PHONE = { width: 390, height: 844 };

test("staff take a post-event letter, filter the queue and reply; the member reads the answer on their profile", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}) => {
  const tag = Date.now() % 100_000;
  const title = `Queue Night ${tag}`;
  const character = `Hattie Crane ${tag}`;
  const answer = `The Sheriff remembers you, ${character}.`;

  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await addEvent(manager, { title, date: "2024-02-10", status: "past" });

  // The player writes a post-event letter.
  await withSession(page, playerState);
  await page.goto("/pels");
  await page
    .getByLabel("Event", { exact: true })
    .selectOption({ label: `${title} (${formatEventDate("2024-02-10")})` });
  await page.getByLabel("Character name").fill(character);
  for (const question of PEL_QUESTIONS)
    await page.getByLabel(question.label, { exact: true }).fill(`On ${question.key}: quiet.`);
  await page.getByRole("button", { name: "Submit Letter" }).click();
  await expect(page.getByRole("heading", { name: "Letter Received!" })).toBeVisible();

  // The Tools page counts it among the new letters.
  await manager.goto("/tools");
  await expect(manager.getByRole("link", { name: /View PELs \(\d+ new\)/ })).toBeVisible();

  // On a phone, the opened event's letters lead with status, author and assignee, all in view
  // together with "Take it"; the letter itself opens on demand.
  const phoneContext = await browser.newContext({ baseURL, storageState: managerState, viewport: PHONE });
  const phone = await phoneContext.newPage();
  await phone.goto("/view-pels");
  const group = phone.getByRole("listitem").filter({ has: phone.getByRole("link", { name: title }) });
  // Each event says how many of its entries are new.
  await expect(group.getByTestId("fresh-count")).toHaveText("· 1 new");
  await group.getByRole("link", { name: title }).click();
  const letter = phone.getByRole("article").filter({ hasText: character });
  const head = letter.getByTestId("queue-head");
  // Brought to the top of the screen, below the site's bar, as a reader scrolling down finds it.
  await letter.evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + scrollY - 80));
  await expect(head.getByTestId("queue-status")).toHaveText("New");
  await expect(head.getByRole("heading", { name: /^Wyatt Tanner · / })).toBeVisible();
  await expect(head.getByTestId("queue-assignee")).toHaveText("Nobody has taken it");
  for (const part of [head, letter.getByRole("button", { name: /^Take it/ })]) await expect(part).toBeInViewport();
  const answerText = letter.getByText(`On ${PEL_QUESTIONS[0]!.key}: quiet.`);
  await expect(answerText).toBeHidden();
  // Closed, the whole entry takes less than half the screen: no wall of text before the next.
  expect((await letter.boundingBox())!.height).toBeLessThan(PHONE.height / 2);
  await letter.getByText(`Read the letter from ${character}`).click();
  await expect(answerText).toBeVisible();
  await expectAccessible(phone);
  // "Take it" still works with the letter open, and the keyboard stays on the button, now "Hand back".
  await letter.getByRole("button", { name: /^Take it/ }).click();
  await expect(letter.getByText("You have taken this entry.")).toBeVisible();
  await expect(head.getByTestId("queue-assignee")).toHaveText("Taken by you");
  await expect(letter.getByRole("button", { name: /^Hand back/ })).toBeFocused();
  await letter.getByRole("button", { name: /^Hand back/ }).click();
  await expect(head.getByTestId("queue-assignee")).toHaveText("Nobody has taken it");
  await phoneContext.close();

  // Staff open the event, filtered to new entries: the filter stays in the address.
  await manager.goto("/view-pels");
  await manager.getByRole("link", { name: title }).click();
  await expect(manager.getByRole("article").filter({ hasText: character })).toBeVisible();
  await manager.getByLabel("Status", { exact: true }).selectOption("new");
  await manager.getByRole("button", { name: "Filter" }).click();
  await expect(manager).toHaveURL(/status=new/);
  await expect(manager).toHaveURL(/event=/);
  const entry = manager.getByRole("article").filter({ hasText: character });
  await expect(entry.getByTestId("queue-status")).toHaveText("New");
  await expectAccessible(manager);

  await entry.getByRole("button", { name: /^Take it/ }).click();
  await expect(manager.getByText("You have taken this entry.")).toBeVisible();
  // The entry left the filtered list with the button pressed: the keyboard is on the notice that says so.
  await expect(manager.locator(":focus")).toContainText("You have taken this entry. It no longer matches the filter.");
  // Still new? No: taken, so the "new" filter no longer lists it; mine does.
  await expect(manager.getByRole("article").filter({ hasText: character })).toHaveCount(0);
  await manager.getByLabel("Status", { exact: true }).selectOption("any");
  await manager.getByLabel("Taken by").selectOption("mine");
  await manager.getByRole("button", { name: "Filter" }).click();
  await expect(manager).toHaveURL(/assignee=mine/);
  const mine = manager.getByRole("article").filter({ hasText: character });
  await expect(mine.getByTestId("queue-status")).toHaveText("In progress");
  await expect(mine.getByTestId("queue-assignee")).toHaveText("Taken by you");

  // Only the entry being answered carries the status and reply forms.
  await expect(manager.getByLabel(/^Reply to/)).toHaveCount(0);
  await mine.getByRole("link", { name: /^Reply or set status/ }).click();
  await expect(manager).toHaveURL(/answer=/);
  await expect(manager).toHaveURL(/assignee=mine/);
  await expect(mine.getByLabel(/^Status of /)).toBeFocused();
  await mine.getByLabel(/^Reply to/).fill(answer);
  await mine.getByRole("button", { name: "Send reply" }).click();
  await expect(manager.getByText("Reply sent. The member reads it on their profile.")).toBeVisible();
  // The keyboard stays where it was, and the box is empty for another reply.
  await expect(mine.getByRole("button", { name: "Send reply" })).toBeFocused();
  await expect(mine.getByLabel(/^Reply to/)).toHaveValue("");
  await expect(mine.getByTestId("queue-status")).toHaveText("Answered");
  await expect(mine.getByTestId("staff-replies")).toContainText(answer);
  await managerContext.close();

  // The member reads the answer on their profile.
  await page.goto("/profile");
  const answers = page.getByTestId("answers-from-staff");
  await expect(answers.getByRole("heading", { name: "Answers from staff" })).toBeVisible();
  await expect(answers).toContainText(`Post-event letter · ${title}`);
  await expect(answers).toContainText(answer);
  await expectAccessible(page);
});

test("the letters' search box and filters always show what the list on screen was made with", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}) => {
  const tag = `Lamp${Date.now() % 100_000}`;
  const npc = `Widow Vane ${tag}`;
  await withSession(page, playerState);
  await page.goto("/letters");
  await page.getByLabel("To", { exact: true }).fill(npc);
  await page.getByLabel("Letter", { exact: true }).fill(`Is the ${tag} lit tonight?`);
  await page.getByRole("button", { name: "Send Letter" }).click();
  await expect(
    page.getByText(`${npc} is no player's character, so the club's staff will answer for them.`),
  ).toBeVisible();

  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await manager.goto("/view-letters");
  // With JavaScript running, searches, filters and tabs are client-side navigations: the same controls stay on the page.
  await manager.waitForFunction(() =>
    Object.keys(document.querySelector('form[role="search"]') ?? {}).some((key) => key.startsWith("__react")),
  );
  await manager.evaluate(() => Object.assign(window, { samePage: true }));
  const query = (name: string) => new URL(manager.url()).searchParams.get(name);
  const status = manager.getByLabel("Status", { exact: true });
  const takenBy = manager.getByLabel("Taken by");
  const search = manager.getByRole("searchbox", { name: "Search by sender, recipient or text" });
  const letter = manager.getByRole("article").filter({ hasText: `Is the ${tag} lit tonight?` });
  // The address changes before the page is drawn for it, and drawing it puts every control back to
  // the address's value: the tab links carry the narrowing, so they tell when the page has arrived.
  const arrivedAt = (query: string) =>
    expect(manager.getByRole("link", { name: "All letters" })).toHaveAttribute("href", `/view-letters?${query}`);

  // Filtered to new letters, then searched: the search keeps the filter, and the controls show both.
  await status.selectOption("new");
  await manager.getByRole("button", { name: "Filter" }).click();
  await expect.poll(() => query("status")).toBe("new");
  await arrivedAt("status=new");
  await search.fill(tag);
  await manager.getByRole("button", { name: "Search" }).click();
  await expect.poll(() => query("q")).toBe(tag);
  expect(query("status")).toBe("new");
  await arrivedAt(`q=${tag}&status=new`);
  await expect(manager.getByText(`1 letter matching “${tag}”`)).toBeVisible();
  await expect(letter).toBeVisible();
  await expect(status).toHaveValue("new");
  await expect(search).toHaveValue(tag);

  // Narrowed to letters this manager took: none; the search and the status stay, in the address and the controls.
  await takenBy.selectOption("mine");
  await manager.getByRole("button", { name: "Filter" }).click();
  await expect.poll(() => query("assignee")).toBe("mine");
  await arrivedAt(`q=${tag}&status=new&assignee=mine`);
  await expect(letter).toHaveCount(0);
  expect([query("q"), query("status")]).toEqual([tag, "new"]);
  await expect(search).toHaveValue(tag);
  await expect(status).toHaveValue("new");

  // Another tab lists other letters narrowed the same way: the search and the filter go along, in the address and the controls.
  await manager.getByRole("link", { name: /^To NPCs/ }).click();
  await expect.poll(() => query("tab")).toBe("npc");
  await arrivedAt(`q=${tag}&status=new&assignee=mine`);
  await expect(manager.getByRole("link", { name: /^To NPCs/ })).toHaveAttribute("aria-current", "page");
  expect([query("q"), query("status"), query("assignee")]).toEqual([tag, "new", "mine"]);
  await expect(letter).toHaveCount(0);
  await expect(search).toHaveValue(tag);
  await expect(status).toHaveValue("new");
  await expect(takenBy).toHaveValue("mine");

  // A choice made but never sent is not left showing once the page moves on.
  await status.selectOption("answered");
  await search.fill("never sent");
  await manager.getByRole("link", { name: "All letters" }).click();
  await expect.poll(() => query("tab")).toBeNull();
  await expect(manager.getByRole("link", { name: "All letters" })).toHaveAttribute("aria-current", "page");
  expect([query("q"), query("status"), query("assignee")]).toEqual([tag, "new", "mine"]);
  await expect(status).toHaveValue("new");
  await expect(search).toHaveValue(tag);
  await expect(takenBy).toHaveValue("mine");
  expect(await manager.evaluate(() => "samePage" in window)).toBe(true);
  await managerContext.close();
});

test("a manager marks an order handed out on the event-day sheet, undoes it there and on the orders review", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}) => {
  const tag = Date.now() % 100_000;
  const title = `Hand Out Night ${tag}`;
  const label = `${title} (${formatEventDate("2099-09-18")})`;
  const player = E2E_PLAYERS.desktop;

  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await addEvent(manager, { title, date: "2099-09-18", status: "future" });
  await addAttendance(manager, label, player.email, "player-desktop", "Watchtower");

  // The player orders for the event.
  await withSession(page, playerState);
  await page.goto("/merchant-orders");
  await page.getByLabel("Event", { exact: true }).selectOption({ label });
  await page.getByLabel("Quantity of 20 Bullets").fill("2");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Order Placed!" })).toBeVisible();

  // On the sheet: the order to hand out and what to collect; pressing "Handed out" returns to the row without it.
  await manager.goto("/attendance-tool");
  await manager.getByRole("link", { name: `Event-day sheet: ${label}` }).click();
  const row = manager.getByRole("row", { name: /Wyatt Tanner/ });
  await expect(row).toContainText("2 × 20 Bullets");
  await expect(row).toContainText("$15.50");
  await expect(manager.getByTestId("total-to-collect")).toHaveText("$15.50 Hopewell Dollars");
  await row.getByRole("button", { name: /^Handed out\s*: Wyatt Tanner's order$/ }).click();
  await expect(manager).toHaveURL(/#attendee-/);
  const handedOutAddress = manager.url();
  // The keyboard is left in the row (its button is gone), and the press is said.
  await expect(row.getByRole("rowheader")).toBeFocused();
  await expect(manager.getByTestId("sheet-status")).toHaveText(
    "Handed out: Wyatt Tanner's order. No more orders to hand out to them.",
  );
  await expect(row).toContainText("No orders");
  await expect(row).toContainText("Nothing");
  await expect(manager.getByTestId("total-to-collect")).toHaveText("$0.00 Hopewell Dollars");
  // Pressed on the wrong row? Undo on the sheet puts the order back, with the keyboard on its button.
  await row.getByRole("button", { name: /^Undo\s*handed out for Wyatt Tanner's order$/ }).click();
  await expect(manager.getByTestId("sheet-status")).toHaveText(
    "No longer marked as handed out: Wyatt Tanner's order. 1 order to hand out to them.",
  );
  await expect(row.getByRole("button", { name: /^Handed out\s*: Wyatt Tanner's order$/ })).toBeFocused();
  await expect(manager.getByTestId("total-to-collect")).toHaveText("$15.50 Hopewell Dollars");
  // The address from before Undo, opened again, no longer says the order was handed out.
  await manager.goto(handedOutAddress);
  await expect(row).toContainText("2 × 20 Bullets");
  await expect(manager.getByTestId("sheet-status")).toHaveText("");
  await expect(row).not.toContainText("Marked as handed out.");
  await row.getByRole("button", { name: /^Handed out\s*: Wyatt Tanner's order$/ }).click();
  await expect(row.getByRole("rowheader")).toBeFocused();
  await expect(manager.getByTestId("total-to-collect")).toHaveText("$0.00 Hopewell Dollars");
  const sheetUrl = manager.url().replace(/[?#].*/, "");

  // The orders review says who handed it out, and Undo puts it back on the sheet.
  const eventId = new URL(sheetUrl).pathname.split("/").pop();
  await manager.goto(`/view-merchant-orders?event=${eventId}`);
  await expect(manager.getByTestId("handed-out")).toHaveText(/^Handed out .+ by Ada Boss$/);
  await expectAccessible(manager);
  // Taking the order and undoing its hand-out leave the keyboard on the button pressed, which now says what it does next.
  await manager.getByRole("button", { name: /^Take it Wyatt Tanner's order of .+ for \$15\.50$/ }).click();
  await expect(manager.getByRole("button", { name: /^Hand back Wyatt Tanner's order of / })).toBeFocused();
  await manager.getByRole("button", { name: /^Undo\s*handed out for Wyatt Tanner's order of / }).click();
  await expect(manager.getByRole("button", { name: /^Mark handed out\s*: Wyatt Tanner's order of / })).toBeFocused();
  await manager.goto(sheetUrl);
  await expect(manager.getByRole("row", { name: /Wyatt Tanner/ })).toContainText("2 × 20 Bullets");
  await expect(manager.getByTestId("total-to-collect")).toHaveText("$15.50 Hopewell Dollars");
  await managerContext.close();
});
