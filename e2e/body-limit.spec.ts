import { expect, test } from "@playwright/test";
import { expectAccessible } from "./axe";

test("a form too big to send gets the site's own page, readable at any width, with a way back", async ({ page }) => {
  await page.goto("/auth");
  // What a person cannot type into the form's fields: more than 1 MB in one post, sent by the browser itself.
  await Promise.all([
    page.waitForURL("**/auth"),
    page.evaluate(() => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = "/auth";
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = "notes";
      field.value = "a".repeat(1_200_000);
      form.append(field);
      document.body.append(form);
      form.submit();
    }),
  ]);
  await expect(page).toHaveTitle("Too Much to Carry · Hopewell");
  await expect(page.getByRole("heading", { level: 1, name: "Too Much to Carry" })).toBeVisible();
  await expect(
    page.getByText("a form carries at most 1\u00a0MB, and a research upload one file of at most 5\u00a0MB"),
  ).toBeVisible();
  // The site's stylesheet dresses it: the heading is in the display face, as on every page.
  expect(
    await page.getByRole("heading", { level: 1 }).evaluate((heading) => getComputedStyle(heading).fontFamily),
  ).toContain("Rye");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
  await expectAccessible(page);
  await page.getByRole("link", { name: "Back to town" }).click();
  await expect(page).toHaveURL(/\/$/);
});
