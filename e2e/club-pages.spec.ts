import { expect, test } from "@playwright/test";
import { expectAccessible } from "./axe";
import { signIn } from "./helpers";
import { startOwnServer, type OwnServer } from "./own-server";

// The location page's words and the rulebook change every visitor's pages: on a server of this
// spec's own, so the other specs' public pages stay as the site shipped them.
test.describe.configure({ timeout: 180_000, mode: "serial" });

const MANAGER = {
  first: "Ada",
  last: "Ledger",
  email: "ada.ledger@e2e.test",
  password: "Lantern#1877",
  role: "manager" as const,
};

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

let server: OwnServer;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer({ name: "club-pages", env: { REQUIRE_MANAGER_2FA: "false" }, members: [MANAGER] });
});
test.afterAll(async () => {
  await server?.stop();
});

test("a manager rewrites the location page's directions and every visitor reads them", async ({
  page,
  browser,
  isMobile,
}) => {
  await page.goto(`${server.site}/auth`);
  await signIn(page, MANAGER.email, MANAGER.password);
  await page.waitForURL(`${server.site}/`);
  await page.goto(`${server.site}/tools/club/locations`);
  await expect(page.getByRole("heading", { level: 1, name: "The Location Page" })).toBeVisible();
  const directions = page.getByLabel("Directions");
  await expect(directions).toHaveValue(/^Take I-84 to Exit 73/);
  await expectAccessible(page);

  await directions.fill("Follow the **lantern signs** from the station.");
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("region", { name: "Preview: not saved yet" });
  await expect(preview.locator("strong", { hasText: "lantern signs" })).toBeVisible();
  await page.getByRole("button", { name: "Save the location page" }).click();
  await expect(page.getByText("Saved: the location page is now version 1.")).toBeVisible();

  // A visitor who is not signed in gets the page from memory, dropped by the save.
  const visitor = await browser.newPage({ isMobile, viewport: page.viewportSize()! });
  await visitor.goto(`${server.site}/locations`);
  const section = visitor.getByRole("region", { name: "Directions" });
  await expect(section.locator("strong", { hasText: "lantern signs" })).toBeVisible();
  await expect(visitor.getByRole("region", { name: "Arrival Times" })).toContainText("Venue opens");
  await visitor.close();
});

test("a manager uploads the rulebook as a PDF by the page's script, then chooses the built-in one and brings the PDF back", async ({
  page,
}) => {
  await page.goto(`${server.site}/auth`);
  await signIn(page, MANAGER.email, MANAGER.password);
  await page.waitForURL(`${server.site}/`);
  await page.goto(`${server.site}/tools/club/rulebook`);
  await expect(page.getByText("The rulebook page shows the built-in rulebook, as the site shipped it.")).toBeVisible();
  await expectAccessible(page);

  // Not a PDF: said before anything is sent.
  const file = page.getByLabel("The rulebook as a PDF");
  await file.setInputFiles({ name: "rules.txt", mimeType: "text/plain", buffer: Buffer.from("rules") });
  await page.getByRole("button", { name: "Upload the PDF" }).click();
  await expect(page.getByText("Choose a PDF of the rulebook, up to 5 MB.")).toBeVisible();

  // Sent by the page's script, which shows the bytes going.
  const sent = page.waitForRequest(
    (request) => request.method() === "POST" && request.headers().accept === "application/json",
  );
  await file.setInputFiles({ name: "Hopewell Rules.pdf", mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("button", { name: "Upload the PDF" }).click();
  await sent;
  await expect(page.getByText("Saved: the rulebook is now version 1.")).toBeVisible();
  await expect(
    page.getByText("The rulebook page shows the PDF uploaded here, Hopewell Rules.pdf (1 KB)."),
  ).toBeVisible();

  await page.goto(`${server.site}/rulebook`);
  await expect(page.locator('iframe[title="Hopewell rulebook"]')).toHaveAttribute("src", "/rulebook/document?v=1");
  const document = await page.request.get(`${server.site}/rulebook/document?v=1`);
  expect(document.headers()["content-type"]).toBe("application/pdf");

  await page.goto(`${server.site}/tools/club/rulebook`);
  await page.getByRole("button", { name: "Use the built-in rulebook" }).click();
  await expect(page.getByText("Saved: the rulebook is now version 2.")).toBeVisible();
  await page.getByRole("button", { name: "Bring back version 1" }).click();
  await expect(page.getByText("Version 1 is back, saved as version 3.")).toBeVisible();
  await expect(
    page.getByText("The rulebook page shows the PDF uploaded here, Hopewell Rules.pdf (1 KB)."),
  ).toBeVisible();
});
