import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Fails on any serious or critical accessibility violation on the page as it stands.
 *
 * axe runs in the page itself (`axe.run`, the builder's "legacy mode"). Its default runs each
 * frame on its own and merges the results in a new blank page with axe injected afresh: about
 * 0.8 s more a page, for frames from other origins, which the site's pages only show from
 * OpenStreetMap (unreachable in tests). Frames of the site's own origin are still checked. The
 * rules are the same: a label missing, an image without text and text in too low a contrast,
 * planted on a page, each failed the check this way.
 */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
  expect(blocking, blocking.join("\n")).toEqual([]);
}
