import type { Browser, Page } from "@playwright/test";
import { formatEventDate } from "../app/lib/dates";
import { expect, test, withSession, type SignedInState } from "./fixtures";
import { addEvent, createMember, signInByPost, uniqueEmail } from "./helpers";

// Long forms are sent from a button far below their message: a refusal must bring the
// message into view and move focus to it, whether the page or the server refused.
test.describe.configure({ timeout: 120_000 });

async function expectSummary(page: Page, text: string) {
  const summary = page.getByTestId("error-summary");
  await expect(summary.getByRole("alert")).toHaveText(text);
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
}

async function addFutureEvent(
  browser: Browser,
  baseURL: string | undefined,
  managerState: SignedInState,
  title: string,
) {
  const context = await browser.newContext({ baseURL, storageState: managerState });
  const manager = await context.newPage();
  await addEvent(manager, { title, date: "2099-09-18", status: "future" });
  await context.close();
}

test("merchant order: the limit in words, no stale message, the total in view, focus on the message", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}, testInfo) => {
  const title = `Harvest Moon (${testInfo.project.name} ${Date.now()})`;
  await addFutureEvent(browser, baseURL, managerState, title);

  await withSession(page, playerState);
  await page.goto("/merchant-orders");
  await page
    .getByLabel("Event", { exact: true })
    .selectOption({ label: `${title} (${formatEventDate("2099-09-18")})` });

  // Typing near the top of the list, the total is on screen.
  await page.getByLabel("Quantity of Meat").fill("3");
  await expect(page.getByTestId("order-total")).toHaveText("$9.00");
  await expect(page.getByTestId("order-total")).toBeInViewport();

  await page.getByLabel("Quantity of Meat").fill("");
  await page.getByLabel("Quantity of 5 Wood Stocks").fill("99999");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expectSummary(page, "Quantities must be whole numbers from 0 to 9,999");
  await expect(page.getByLabel("Quantity of 5 Wood Stocks")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Quantity of 5 Wood Stocks").fill("0");
  await expect(page.getByTestId("error-summary")).toHaveCount(0);
  await page.getByRole("button", { name: "Place Order" }).click();
  await expectSummary(page, "Please add at least one item to your order");

  // Adding an item puts it right: the message goes.
  await page.getByLabel("Quantity of 5 Springs").fill("1");
  await expect(page.getByTestId("error-summary")).toHaveCount(0);
  await expect(page.getByText("Please add at least one item to your order")).toHaveCount(0);
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Order Placed!" })).toBeVisible();
});

test("application: the message takes focus after the button at the foot is pressed", async ({ page }) => {
  const email = uniqueEmail("long-form");
  await createMember({ email, password: "Lantern#1877", first: "Lena", last: "Long", role: "applicant" });
  await signInByPost(page, email, "Lantern#1877");
  await page.goto("/application");
  await page.getByRole("button", { name: "Submit Application" }).click();
  await expectSummary(page, "Please fill in all required fields");
});

test("research: the message takes focus, for the page's check and for the server's", async ({
  page,
  browser,
  baseURL,
  managerState,
  playerState,
}, testInfo) => {
  const title = `Assay Night (${testInfo.project.name} ${Date.now()})`;
  await addFutureEvent(browser, baseURL, managerState, title);
  await withSession(page, playerState);
  await page.goto("/research");
  await page.getByRole("button", { name: "Submit Research" }).click();
  await expectSummary(page, "Please fill in all fields and upload a file");

  // A file named .png that is not a picture: only the server can tell.
  await page
    .getByLabel("Event", { exact: true })
    .selectOption({ label: `${title} (${formatEventDate("2099-09-18")})` });
  await page.getByLabel("Sources", { exact: true }).fill("The assayer's ledger.");
  await page.getByLabel("Research notes").fill("The ore glows when the lamps go out.");
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "ore.png", mimeType: "image/png", buffer: Buffer.from("not a picture at all") });
  await page.getByRole("button", { name: "Submit Research" }).click();
  await expectSummary(page, "Please upload only JPG, JPEG, PNG or PDF files");
});
