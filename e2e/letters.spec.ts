import { devices, type Browser, type Page } from "@playwright/test";
import { ANY_WIDTH } from "../playwright.config";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { createMember, mainNav, signInByPost } from "./helpers";

// Two members and a manager, each in a browser of their own: a long journey on a shared machine.
test.describe.configure({ timeout: 300_000 });

/** `page`, or a desktop-sized browser of its own, with `account` signed in (signing in is not what is tested here). */
async function signedIn(
  browser: Browser,
  baseURL: string,
  page: Page | null,
  account: { email: string; password: string },
): Promise<Page> {
  const own = page ?? (await (await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } })).newPage());
  await signInByPost(own, account.email, account.password);
  return own;
}

async function buildCharacter(page: Page, name: string) {
  await page.goto("/character");
  await page.getByLabel("Character name").fill(name);
  await page.getByLabel("Faction").selectOption("Homesteader");
  await page.getByLabel("Job").selectOption("Miner");
  await page.getByLabel("Backstory").fill("Came west for the silver, stayed for the quiet.");
  await page.getByRole("button", { name: "Save Character" }).click();
  await expect(page.getByRole("heading", { name: /Character (Created|Saved)/ })).toBeVisible();
}

// Runs at desktop width, where the writer's browser is; the writer also reads the thread on a phone.
test(
  "two members write, reply and hear from an NPC; staff release and answer",
  { tag: ANY_WIDTH },
  async ({ page, browser, baseURL, managerState }, testInfo) => {
    const width = testInfo.project.name;
    const tag = `${width === "desktop" ? "Desk" : "Phone"}${Date.now() % 100_000}`;
    const clara = `Clara Dunmore ${tag}`;
    const silas = `Silas Thornwood ${tag}`;
    const widow = `Widow Harlan ${tag}`;
    const shot = async (target: Page, name: string, at = width) => {
      await target.screenshot({ path: testInfo.outputPath(`${name}-${at}.png`), fullPage: true });
      await target.screenshot({ path: `/tmp/letters-${name}-${at}.png`, fullPage: true });
    };

    // The writer uses this test's own browser; the reader and the manager their own.
    const writer = await signedIn(
      browser,
      baseURL!,
      page,
      await createMember({ first: "Clara", last: `Writer${tag}` }),
    );
    await buildCharacter(writer, clara);
    const reader = await signedIn(
      browser,
      baseURL!,
      null,
      await createMember({ first: "Silas", last: `Reader${tag}` }),
    );
    await buildCharacter(reader, silas);

    // The writer addresses the reader's character (typed in another case: the server finds it).
    await writer.goto("/letters");
    await writer.getByLabel("To", { exact: true }).fill(silas.toLowerCase());
    await writer.getByLabel("Letter", { exact: true }).fill(`Meet me at the mill when the lanterns go out. (${tag})`);
    await writer.getByRole("button", { name: "Send Letter" }).click();
    await expect(writer.getByRole("heading", { name: "Letter Sent!" })).toBeVisible();
    await expect(
      writer.getByText(`It will arrive in ${silas}'s letter box once the club's staff release it.`),
    ).toBeVisible();

    // The manager releases it.
    const manager = await (
      await browser.newContext({ baseURL, viewport: page.viewportSize()!, storageState: managerState })
    ).newPage();
    await manager.goto("/view-letters?tab=held");
    const held = manager.locator("article", { hasText: `lanterns go out. (${tag})` });
    await expect(held.getByText(`Signed ${clara}`)).toBeVisible();
    await expectAccessible(manager);
    await held.getByRole("button", { name: "Release to letter box" }).click();
    await expect(manager.getByText("The letter was released into its recipient's letter box.")).toBeVisible();

    // The reader sees the count, opens the letter box and the letter, and replies.
    await reader.goto("/events");
    await expect(reader.getByTestId("unread-letters").first()).toHaveText("1 unread letter");
    await reader.goto("/profile");
    await expect(reader.getByTestId("profile-unread-letters")).toHaveText("You have 1 unread letter.");
    await reader.getByRole("link", { name: "Open your letter box" }).click();
    await expect(reader.getByRole("heading", { name: "Letter Box", level: 1 })).toBeVisible();
    await expect(reader.getByText(`From ${clara}`)).toBeVisible();
    await reader.getByText(`From ${clara}`).click();
    await expect(reader.getByText(`Meet me at the mill when the lanterns go out. (${tag})`)).toBeVisible();
    await expect(reader.getByText("Clara Writer")).toHaveCount(0);
    await reader.getByLabel("Your reply").fill("Who is asking, and why the mill?");
    await reader.getByRole("button", { name: "Send Reply" }).click();
    await expect(
      reader.getByText(
        `Your reply is on its way. It will arrive in ${clara}'s letter box once the club's staff release it.`,
      ),
    ).toBeVisible();
    await expect(reader.getByTestId("unread-letters")).toHaveCount(0);

    await manager.goto("/view-letters?tab=held");
    await manager
      .locator("article", { hasText: "Who is asking, and why the mill?" })
      .getByRole("button", { name: "Release to letter box" })
      .click();
    await expect(manager.getByText("The letter was released into its recipient's letter box.")).toBeVisible();

    // The navigation counts the reply; the writer reads the thread on their phone, from its menu,
    // where the closed menu shows the count too.
    await writer.goto("/events");
    await expect((await mainNav(writer, false)).getByTestId("unread-letters")).toHaveText("1 unread letter");
    const phone = await (
      await browser.newContext({ ...devices["Pixel 7"], baseURL, storageState: await writer.context().storageState() })
    ).newPage();
    await phone.goto("/events");
    await expect(phone.locator("summary", { hasText: "Menu" })).toContainText("1 unread letter");
    const nav = await mainNav(phone, true);
    await expect(nav.getByTestId("unread-letters")).toHaveText("1 unread letter");
    await nav.getByRole("link", { name: /Letters/ }).click();
    await expect(phone.getByRole("heading", { name: "Letter Box", level: 1 })).toBeVisible();
    await expect(phone.getByText("Unread", { exact: true })).toBeVisible();
    await expectAccessible(phone);
    await shot(phone, "letter-box", "phone");
    await phone.getByText(`From ${silas}`).click();
    await expect(phone.getByText("Who is asking, and why the mill?")).toBeVisible();
    await expect(phone.getByText(`Meet me at the mill when the lanterns go out. (${tag})`)).toBeVisible();
    await expectAccessible(phone);
    await shot(phone, "thread", "phone");
    await phone.context().close();

    // A letter to someone who is no player's character goes to staff, who answer as them.
    await writer.goto("/letters");
    await writer.getByLabel("To", { exact: true }).fill(widow);
    await writer.getByLabel("Letter", { exact: true }).fill(`Who was buried under the old mill? (${tag})`);
    await writer.getByRole("button", { name: "Send Letter" }).click();
    await expect(
      writer.getByText(`${widow} is no player's character, so the club's staff will answer for them.`),
    ).toBeVisible();

    await manager.goto("/view-letters?tab=npc");
    const toNpc = manager.locator("article", { hasText: `Who was buried under the old mill? (${tag})` });
    await toNpc.getByRole("link", { name: /^Reply or set status/ }).click();
    await toNpc.getByLabel(`Answer as ${widow}`).fill("Ask the preacher, child. He dug the hole.");
    await shot(manager, "view-letters-npc");
    await toNpc.getByRole("button", { name: "Send Answer" }).click();
    await expect(manager.getByText("Your answer was delivered to the writer's letter box.")).toBeVisible();
    await manager.goto(`/view-letters?q=${encodeURIComponent(tag)}`);
    await expect(manager.getByText(/\d+ letters? matching/)).toBeVisible();
    await expectAccessible(manager);

    await writer.goto("/letters?tab=box");
    await writer.getByText(`From ${widow}`).click();
    await expect(writer.getByText("Ask the preacher, child. He dug the hole.")).toBeVisible();
    await expect(writer.getByRole("heading", { name: `Reply to ${widow}` })).toBeVisible();
    await shot(writer, "npc-thread");
  },
);
