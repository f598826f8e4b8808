import { devices } from "@playwright/test";
import { daysBefore } from "../app/game/costume";
import { clubToday, formatEventDate } from "../app/lib/dates";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { addAttendance, addEvent, createMember, signInByPost } from "./helpers";

// A manager's events, registrations and an NPC's answer, then the player's phone.
test.describe.configure({ timeout: 120_000 });

test("a player signs in on a phone to find their letter due, an unread letter and their ticket at the top of /", async ({
  page,
  browser,
  baseURL,
  managerState,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "what fits on a phone's first screen");
  const tag = `${Date.now() % 1_000_000}`;
  const player = await createMember({ first: "Hattie", last: `Step${tag}` });
  const ahead = { title: `Lantern Muster ${tag}`, date: daysBefore(clubToday(), -45) };
  const held = { title: `Ashfall Night ${tag}`, date: daysBefore(clubToday(), 7) };
  const widow = `Widow Marsh ${tag}`;

  // A manager announces an event, records one held last week, and puts the player on both lists.
  const manager = await (await browser.newContext({ baseURL, storageState: managerState })).newPage();
  await addEvent(manager, { ...ahead, status: "future" });
  await addEvent(manager, { ...held, status: "past" });
  for (const event of [ahead, held])
    await addAttendance(
      manager,
      `${event.title} (${formatEventDate(event.date)})`,
      player.email,
      `Step${tag}`,
      "Watchtower",
    );

  // The player writes to someone who is no player's character; staff answer as her.
  await signInByPost(page, player.email, player.password);
  await page.goto("/letters");
  await page.getByLabel("To", { exact: true }).fill(widow);
  await page.getByLabel("Letter", { exact: true }).fill(`Who keeps the lantern lit? (${tag})`);
  await page.getByRole("button", { name: "Send Letter" }).click();
  await expect(page.getByText(`${widow} is no player's character`)).toBeVisible();
  await manager.goto("/view-letters?tab=npc");
  const letter = manager.locator("article", { hasText: `Who keeps the lantern lit? (${tag})` });
  await letter.getByRole("link", { name: /^Reply or set status/ }).click();
  await letter.getByLabel(`Answer as ${widow}`).fill("The dead do, child.");
  await letter.getByRole("button", { name: "Send Answer" }).click();
  await expect(manager.getByText("Your answer was delivered to the writer's letter box.")).toBeVisible();
  await manager.context().close();

  // Signed in, `/` leads with what is the player's, all of it on the first screen.
  await page.goto("/");
  const panel = page.getByRole("region", { name: "Welcome back, Hattie" });
  const due = panel.getByRole("link", { name: new RegExp(`^Post-event letter due\\s*${held.title}`) });
  const unread = panel.getByRole("link", { name: /^1 unread letter\s*Open your letter box$/ });
  const next = panel.getByTestId("next-event");
  for (const part of [due, unread, next]) await expect(part).toBeInViewport({ ratio: 1 });
  await expect(next).toContainText(ahead.title);
  await expect(next.getByTestId("registration")).toHaveText("You are registered");
  await expect(next.getByTestId("costume-step")).toContainText("Costume photo: No photo yet, due in 31 days");
  // The public page follows, its hero below the panel.
  const [hero, event] = [
    await page.getByRole("heading", { level: 1, name: "Hopewell" }).boundingBox(),
    await next.boundingBox(),
  ];
  expect(hero!.y).toBeGreaterThan(event!.y + event!.height);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("next-step-phone.png") });

  await due.click();
  await expect(page).toHaveURL(/\/pels\?event=[0-9a-f-]{36}$/);

  // Without scripts, the phone menu lists the forms at once: a letter is two taps from any page.
  const plain = await (
    await browser.newContext({
      ...devices["Pixel 7"],
      extraHTTPHeaders: testInfo.project.use.extraHTTPHeaders,
      baseURL,
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    })
  ).newPage();
  await plain.goto("/events");
  await plain.locator("summary", { hasText: "Menu" }).click();
  const menu = plain.getByRole("navigation", { name: "Main" }).locator("visible=true");
  const pelLink = menu.getByRole("link", { name: "Post-Event Letter" });
  await expect(pelLink).toBeInViewport();
  expect((await pelLink.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await pelLink.click();
  await expect(plain).toHaveURL(/\/pels$/);
  await plain.context().close();
});
