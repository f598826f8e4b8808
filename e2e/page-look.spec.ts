import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { test as signedInTest, withSession } from "./fixtures";

type Rgb = [number, number, number];

/**
 * A full-page picture of the page, read back as one column of pixels from the top of
 * `from` to the top of `to` (both selectors), at `x` (a share of the width).
 */
async function backgroundColumn(page: Page, from: string, to: string, x: number): Promise<Rgb[]> {
  const top =
    Math.ceil((await page.locator(from).boundingBox())!.y + (await page.locator(from).boundingBox())!.height) + 2;
  const bottom = Math.floor((await page.locator(to).boundingBox())!.y) - 2;
  const png = (await page.screenshot({ fullPage: true, animations: "disabled" })).toString("base64");
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  // A blank page decodes the picture (a phone's blank page lays out 980 px wide, hence `width`).
  const reader = await page.context().newPage();
  try {
    return await reader.evaluate(
      async ({ png, top, bottom, x, width }) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext("2d")!;
        context.drawImage(bitmap, 0, 0);
        const scale = bitmap.width / width;
        const column = context.getImageData(
          Math.round(bitmap.width * x),
          Math.round(top * scale),
          1,
          Math.round((bottom - top) * scale),
        ).data;
        const rows: [number, number, number][] = [];
        for (let i = 0; i < column.length; i += 4) rows.push([column[i]!, column[i + 1]!, column[i + 2]!]);
        return rows;
      },
      { png, top, bottom, x, width },
    );
  } finally {
    await reader.close();
  }
}

// One CSS pixel per picture pixel, so a column of the picture is a column of the page.
test.use({ deviceScaleFactor: 1 });

const red = (rows: Rgb[]) => rows.reduce((sum, [r]) => sum + r, 0) / rows.length;

test("the page's glow runs the whole length of a long page, with no seam", async ({ page, isMobile }) => {
  await page.goto("/rulebook");
  // As long as the longest pages (an application, a full order list).
  await page.evaluate(() => document.body.style.setProperty("min-height", "4000px"));
  // A column in the margin beside the content, where only the page's background shows.
  const column = await backgroundColumn(page, "header", "footer", isMobile ? 0.015 : 0.04);
  expect(column.length).toBeGreaterThan(3000);
  const middle = column.slice(1800, 2200);
  // The warm glow at the foot of the screen is at the foot of the page too, not one screen down.
  expect(red(column.slice(-40))).toBeGreaterThanOrEqual(red(middle) + 4);
  expect(red(column.slice(0, 40))).toBeGreaterThanOrEqual(red(middle) + 4);
  // And no step anywhere: neighbouring rows differ by at most the gradient's own rounding.
  let largestStep = 0;
  for (let i = 1; i < column.length; i += 1) {
    for (let c = 0; c < 3; c += 1) largestStep = Math.max(largestStep, Math.abs(column[i]![c]! - column[i - 1]![c]!));
  }
  expect(largestStep).toBeLessThanOrEqual(2);
});

test("on a phone the rulebook is offered on its own page, not in a frame inside the page", async ({
  page,
  isMobile,
}) => {
  await page.goto("/rulebook");
  const open = page.getByRole("link", { name: "Open the rulebook", exact: true });
  const frame = page.locator('iframe[title="Hopewell rulebook"]');
  if (isMobile) {
    await expect(open).toBeVisible();
    await expect(open).toHaveAttribute("href", "/rulebook/document");
    await expect(frame).toBeHidden();
    await open.click();
    await expect(page).toHaveURL(/\/rulebook\/document$/);
    await expect(page.getByRole("heading", { name: "Safety first" })).toBeVisible();
    // A page of its own has no site header: it leads back to the site, in reach of a thumb.
    const back = page.getByRole("link", { name: "Back to Hopewell", exact: true });
    await expect(back).toBeInViewport();
    expect((await back.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await back.click();
    await expect(page).toHaveURL(/\/$/);
  } else {
    await expect(open).toBeHidden();
    await expect(frame).toBeVisible();
    expect((await frame.boundingBox())?.height).toBe(1500);
    // Framed, the page around it is the way back.
    const framed = page.frameLocator('iframe[title="Hopewell rulebook"]');
    await expect(framed.getByRole("heading", { name: "Safety first" })).toBeAttached();
    await expect(framed.getByRole("link", { name: /Back to Hopewell/ })).toHaveCount(0);
  }
  await page.goto("/rulebook");
  await expectAccessible(page);
});

/** The focus ring an element shows, as the browser draws it. */
function ringOf(element: Locator) {
  return element.evaluate((node) => {
    const style = getComputedStyle(node);
    return {
      style: style.outlineStyle,
      width: style.outlineWidth,
      color: style.outlineColor,
      offset: style.outlineOffset,
    };
  });
}

signedInTest(
  "text fields and text areas show the same focus ring as buttons, not only a border of another colour",
  async ({ page, playerState }, testInfo) => {
    await withSession(page, playerState);
    await page.goto("/letters");
    // Buttons ease their colours in: the ring is read once it has settled.
    const brassRing = { style: "solid", width: "3px", color: "rgb(224, 180, 88)", offset: "3px" };
    const to = page.getByLabel("To", { exact: true });
    await to.focus();
    await expect(to).toBeFocused();
    await expect.poll(() => ringOf(to)).toEqual(brassRing);
    await page.screenshot({ path: testInfo.outputPath(`focused-field-${testInfo.project.name}.png`) });
    const letter = page.getByLabel("Letter", { exact: true });
    await letter.focus();
    await expect(letter).toBeFocused();
    await expect.poll(() => ringOf(letter)).toEqual(brassRing);
    const send = page.getByRole("button", { name: "Send Letter" });
    await send.focus();
    await expect(send).toBeFocused();
    await expect.poll(() => ringOf(send)).toEqual(brassRing);
  },
);
