import { expect, test, withSession } from "./fixtures";
import { expectAccessible } from "./axe";

test.describe("home page", () => {
  test("shows the hero, story, features, call to action, FAQ and footer in order", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/Hopewell/);
    await expect(page.getByRole("heading", { level: 1, name: "Hopewell" })).toBeVisible();
    await expect(page.getByText("Survive the frontier. Fear the dark.")).toBeVisible();

    const join = page.getByRole("link", { name: "Join the Adventure" });
    await expect(join).toHaveAttribute("href", "/auth");
    await expect(page.getByRole("link", { name: "Learn More" })).toHaveAttribute("href", "/rulebook");
    await expect(page.getByRole("link", { name: "View Event Schedule" })).toHaveAttribute("href", "/events");
    await expect(page.getByRole("link", { name: "Register Now" })).toHaveAttribute("href", "/auth");
    await expect(page.getByRole("link", { name: "Apply Now" })).toHaveCount(0);

    const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(headings).toEqual([
      "Welcome to Hopewell",
      "What you will do",
      "Your Story Begins Here",
      "Frequently Asked Questions",
    ]);
    for (const feature of ["Crafting", "Survival", "Horror"]) {
      await expect(page.getByRole("heading", { level: 3, name: feature })).toBeVisible();
    }

    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: /Facebook/ })).toHaveAttribute("href", /^https:\/\//);
    await expect(footer.getByRole("link", { name: /Instagram/ })).toHaveAttribute("href", /^https:\/\//);
    await expect(footer.getByRole("link", { name: /Discord/ })).toHaveAttribute("href", /^https:\/\//);
    await expect(footer).toContainText(/© \d{4} Hopewell/);
    await expectAccessible(page);
  });

  test("answers every FAQ topic, opened from the keyboard", async ({ page }) => {
    await page.goto("/");
    const faq = page.getByRole("region", { name: "Frequently Asked Questions" });
    const topics: [RegExp, RegExp][] = [
      [/become a player/, /application/],
      [/kind of game/, /low-combat.*survival, crafting and horror|foam dart/s],
      [/level up/, /no traditional power progression/i],
      [/weapons/, /latex .*unmodded foam dart guns.*in-game currency/s],
      [/lore/, /learn the town's secrets/],
      [/history/, /prejudices/],
      [/wear/, /no visible logos or brands.*no obviously modern clothing.*2 weeks before/is],
    ];
    for (const [question, answer] of topics) {
      const summary = faq.locator("summary", { hasText: question });
      await expect(summary).toHaveCount(1);
      await summary.focus();
      await page.keyboard.press("Enter");
      const details = summary.locator("xpath=..");
      await expect(details).toHaveAttribute("open", "");
      await expect(details).toContainText(answer);
    }
  });
});

test("a member's / and /locations carry the club's words once, and keep them in the browser and after a navigation", async ({
  page,
  playerState,
  isMobile,
}) => {
  test.skip(isMobile, "the same pages; the desktop's menu bar leads between them");
  await withSession(page, playerState);
  const story = "the Northwest Mineral Corporation struck silver";
  const answer = "Create an account on this website";
  const directions = "follow the lantern signs";
  const html = await (await page.goto("/"))!.text();
  // In the page, not again in the data the page's script takes over with.
  expect(html.split(story)).toHaveLength(2);
  expect(html.split(answer)).toHaveLength(2);
  expect((await (await page.request.get("/locations")).text()).split(directions)).toHaveLength(2);
  await page.waitForLoadState("networkidle");

  const homeShown = async () => {
    await expect(page.locator("#welcome-story")).toContainText(story);
    const summary = page.locator("summary", { hasText: /become a player/ });
    await summary.click();
    await expect(summary.locator("xpath=..")).toContainText(answer);
  };
  await homeShown();
  // Within the browser, each page's data is fetched, and brings the words.
  const fetched = () => page.waitForResponse((response) => new URL(response.url()).pathname.endsWith(".data"));
  let data = fetched();
  await page.getByRole("navigation").getByRole("link", { name: "Location" }).click();
  await data;
  await expect(page.getByRole("region", { name: "Directions" })).toContainText(directions);
  data = fetched();
  await page.goBack();
  await data;
  await homeShown();
});

test("the rulebook shows the shipped document in a 1500 px viewer", async ({ page, isMobile }) => {
  test.skip(isMobile, "a phone is offered the document on its own page (page-look.spec.ts)");
  await page.goto("/rulebook");
  await expect(page.getByRole("heading", { level: 1, name: "Rulebook" })).toBeVisible();
  const viewer = page.locator('iframe[title="Hopewell rulebook"]');
  await expect(viewer).toHaveAttribute("src", "/rulebook/document");
  expect((await viewer.boundingBox())?.height).toBe(1500);
  const document = page.frameLocator('iframe[title="Hopewell rulebook"]');
  await expect(document.getByRole("heading", { name: "Safety first" })).toBeVisible();
  await expectAccessible(page);
});

test("the location page gives the venue, map, directions, arrival times and notes", async ({ page }) => {
  await page.goto("/locations");
  await expect(page.getByRole("heading", { level: 1, name: "Game Location" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Taber Creek" })).toBeVisible();
  await expect(page.locator("address")).toContainText("Union, Connecticut");
  await expect(page.locator("iframe[title^='Map of Taber Creek']")).toHaveAttribute(
    "src",
    /openstreetmap\.org\/export\/embed/,
  );
  await expect(page.getByRole("region", { name: "Directions" })).toContainText("Route 190");
  const arrival = page.getByRole("region", { name: "Arrival Times" });
  await expect(arrival).toContainText("2:00 PM Friday");
  await expect(arrival).toContainText("10:00 PM Friday");
  await expect(arrival).toContainText("at least 1 hour early");
  const venue = page.getByRole("region", { name: "Venue Information" });
  for (const fact of ["On-site parking", "Camping areas", "Basic amenities", "Emergency services nearby"]) {
    await expect(venue).toContainText(fact);
  }
  const notes = page.getByRole("region", { name: "Important Notes" });
  await expect(notes).toContainText("Weather");
  await expect(notes).toContainText("registered players receive news");
  await expectAccessible(page);
});

test("/location leads to the location page", async ({ page }) => {
  await page.goto("/location");
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByRole("heading", { level: 1, name: "Game Location" })).toBeVisible();
});

test("an unknown address gets the site's 404 page", async ({ page }) => {
  const response = await page.goto("/no-such-trail");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Lost on the Trail" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to town" })).toHaveAttribute("href", "/");
  await expect(page.locator('nav[aria-label="Main"]').first()).toBeAttached();
  await expectAccessible(page);
});
