import { expectAccessible } from "./axe";
import { expect, test, withSession } from "./fixtures";

test.describe.configure({ timeout: 90_000 });

test("a manager reaches the Outbox from the Tools menu, with and without JavaScript", async ({
  page,
  browser,
  baseURL,
  managerState,
}) => {
  await withSession(page, managerState);
  await page.goto("/tools");
  await page.getByRole("navigation", { name: "Tools" }).getByRole("link", { name: "Outbox" }).click();
  await expect(page).toHaveURL(/\/outbox$/);
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await expect(page.getByText(/^\d+ unsent messages?$/)).toBeVisible();
  await expectAccessible(page);

  // The same page, served to a browser with scripts off.
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    baseURL,
    storageState: await page.context().storageState(),
  });
  try {
    const plain = await noScript.newPage();
    await plain.goto("/outbox");
    await expect(plain.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
    await expect(plain.getByText(/^\d+ unsent messages?$/)).toBeVisible();
  } finally {
    await noScript.close();
  }
});
