import fs from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { Icon } from "~/components/Icon";
import { ICON_SHAPES, iconSprite } from "~/components/icon-shapes";

describe("the icons' sprite", () => {
  it("is the one made from the list of icons (npm run icons makes it again)", () => {
    expect(
      fs.readFileSync("app/components/icons.svg", "utf8"),
      "app/components/icons.svg is out of date: run npm run icons",
    ).toBe(iconSprite());
  });

  it("holds one drawing for each icon of the list, under its name", () => {
    const sprite = iconSprite();
    const ids = [...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toEqual(Object.keys(ICON_SHAPES));
    // Lucide's calendar: its rectangle and six day marks, drawn with round strokes in the text's colour.
    const calendar = sprite.match(/<symbol id="calendar-days"[^>]*>(.*?)<\/symbol>/)!;
    expect(calendar[0]).toContain('stroke="currentColor"');
    expect(calendar[1]).toContain('<rect x="3" y="3" width="18" height="18" rx="2"/>');
    expect(calendar[1]!.match(/<path /g)).toHaveLength(9);
  });

  it("is named by each icon on a page, which screen readers skip", () => {
    const markup = renderToStaticMarkup(createElement(Icon, { name: "ticket", className: "size-5" }));
    expect(markup).toMatch(
      /^<svg width="24" height="24" stroke-width="2" class="size-5" aria-hidden="true" focusable="false"><use href="[^"#]*icons\.[^"#]*#ticket"><\/use><\/svg>$/,
    );
  });
});
