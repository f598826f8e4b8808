import type { Page } from "@playwright/test";
import { PEL_QUESTIONS } from "../app/game/pel";
import { formatEventDate } from "../app/lib/dates";
import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function addEvent(page: Page, title: string, date: string, status: string) {
  await page.goto("/events/manage");
  await page.getByLabel("Title").first().fill(title);
  await page.getByLabel("Date").first().fill(date);
  await page.getByLabel("Status").first().selectOption(status);
  await page.getByLabel("Ticket link").first().fill("https://buy.stripe.com/test_e2e");
  await page.getByRole("button", { name: "Add Event" }).click();
  await expect(page.getByText("Event added.")).toBeVisible();
}

test("a player sends a post-event letter, a merchant order, research and a letter", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}, testInfo) => {
  const width = testInfo.project.name;
  const held = `The Long Dark (${width})`;
  const upcoming = `First Frost (${width})`;

  const managerContext = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await managerContext.newPage();
  await addEvent(manager, held, "2025-10-17", "past");
  await addEvent(manager, upcoming, "2099-11-20", "future");
  await expectAccessible(manager);
  await managerContext.close();

  await withSession(page, playerState);

  // Post-event letter.
  await page.goto("/pels");
  await expect(page.getByTestId("pel-count")).toHaveText(/You have written \d+ post-event letters?\./);
  await page.getByRole("button", { name: "Submit Letter" }).click();
  await expect(page.getByRole("alert").first()).toHaveText("Please fill in all required fields");
  await page.getByLabel("Event", { exact: true }).selectOption({ label: `${held} (${formatEventDate("2025-10-17")})` });
  await page.getByLabel("Character name").fill("Wyatt the Bold");
  for (const question of PEL_QUESTIONS) {
    const field = page.getByLabel(question.label, { exact: true });
    await expect(field).toHaveAttribute("rows", "5");
    await field.fill(`On ${question.key}: the lanterns guttered at midnight.`);
  }
  await expectAccessible(page);
  await page.getByRole("button", { name: "Submit Letter" }).click();
  await expect(page.getByRole("heading", { name: "Letter Received!" })).toBeVisible();

  // Merchant order, with the running total.
  await page.goto("/merchant-orders");
  await page.getByLabel("Quantity of 20 Bullets").fill("2");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please select an event");
  await page
    .getByLabel("Event", { exact: true })
    .selectOption({ label: `${upcoming} (${formatEventDate("2099-11-20")})` });
  await page.getByLabel("Quantity of 20 Bullets").fill("0");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please add at least one item to your order");
  await page.getByLabel("Quantity of 20 Bullets").fill("2");
  await expect(page.getByTestId("order-total")).toHaveText("$15.50");
  await page.getByLabel("Quantity of 10 Bandages").fill("1");
  await expect(page.getByTestId("order-total")).toHaveText("$38.00");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Order Placed!" })).toBeVisible();
  await expect(page.getByText("$38.00")).toBeVisible();

  // Research with a file.
  await page.goto("/research");
  await page.getByLabel("Event", { exact: true }).selectOption({ label: `${held} (${formatEventDate("2025-10-17")})` });
  await page.getByLabel("Sources", { exact: true }).fill("The assayer's ledger.");
  await page.getByLabel("Research notes").fill("The ore glows when the lamps go out.");
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain text") });
  await page.getByRole("button", { name: "Submit Research" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please upload only JPG, JPEG, PNG or PDF files");
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "ore.png", mimeType: "image/png", buffer: PNG });
  await expectAccessible(page);
  await page.getByRole("button", { name: "Submit Research" }).click();
  await expect(page.getByRole("heading", { name: "Research Submitted!" })).toBeVisible();

  // An in-game letter.
  await page.goto("/letters");
  await expect(page.getByLabel("Letter", { exact: true })).toHaveAttribute("rows", "10");
  await page.getByRole("button", { name: "Send Letter" }).click();
  await expect(page.getByRole("alert")).toHaveText("Please fill in all fields");
  await page.getByLabel("To", { exact: true }).fill("Abigail Voss");
  await page.getByLabel("Letter", { exact: true }).fill("Meet me at the well after dark.");
  await page.getByRole("button", { name: "Send Letter" }).click();
  await expect(page.getByRole("heading", { name: "Letter Sent!" })).toBeVisible();
});
