import { PEL_QUESTIONS } from "../app/game/pel";
import { formatEventDate } from "../app/lib/dates";
import { expectAccessible } from "./axe";
import { addEvent } from "./helpers";
import { expect, test, withSession } from "./fixtures";

test.describe.configure({ timeout: 180_000 });

test("staff take a post-event letter, filter the queue and reply; the member reads the answer on their profile", async ({ page, browser, baseURL, managerState, playerState }) => {
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
  await page.getByLabel("Event", { exact: true }).selectOption({ label: `${title} (${formatEventDate("2024-02-10")})` });
  await page.getByLabel("Character name").fill(character);
  for (const question of PEL_QUESTIONS) await page.getByLabel(question.label, { exact: true }).fill(`On ${question.key}: quiet.`);
  await page.getByRole("button", { name: "Submit Letter" }).click();
  await expect(page.getByRole("heading", { name: "Letter Received!" })).toBeVisible();

  // The Tools page counts it among the new letters.
  await manager.goto("/tools");
  await expect(manager.getByRole("link", { name: /View PELs \(\d+ new\)/ })).toBeVisible();

  // Staff open the event, filtered to new entries: the filter stays in the address.
  await manager.goto("/view-pels");
  await manager.getByRole("link", { name: title }).click();
  await manager.getByLabel("Status", { exact: true }).first().selectOption("new");
  await manager.getByRole("button", { name: "Filter" }).click();
  await expect(manager).toHaveURL(/status=new/);
  await expect(manager).toHaveURL(/event=/);
  const entry = manager.getByRole("article").filter({ hasText: character });
  await expect(entry.getByTestId("queue-status")).toHaveText("New");
  await expectAccessible(manager);

  await entry.getByRole("button", { name: /^Take it/ }).click();
  await expect(manager.getByText("You have taken this entry.")).toBeVisible();
  // Still new? No: taken, so the "new" filter no longer lists it; mine does.
  await expect(manager.getByRole("article").filter({ hasText: character })).toHaveCount(0);
  await manager.getByLabel("Status", { exact: true }).first().selectOption("any");
  await manager.getByLabel("Taken by").selectOption("mine");
  await manager.getByRole("button", { name: "Filter" }).click();
  await expect(manager).toHaveURL(/assignee=mine/);
  const mine = manager.getByRole("article").filter({ hasText: character });
  await expect(mine.getByTestId("queue-status")).toHaveText("In progress");
  await expect(mine.getByTestId("queue-assignee")).toHaveText("Taken by you");

  await mine.getByLabel(/^Reply to/).fill(answer);
  await mine.getByRole("button", { name: "Send reply" }).click();
  await expect(manager.getByText("Reply sent. The member reads it on their profile.")).toBeVisible();
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
