import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ResultCount } from "~/components/ListControls";

const count = (total: number, search?: string) =>
  renderToStaticMarkup(createElement(ResultCount, { total, noun: "letter", search }));

describe("a list's count", () => {
  it("groups thousands, and says one or many", () => {
    expect(count(1321, "lantern")).toContain("1,321 letters matching “lantern”");
    expect(count(1)).toContain(">1 letter<");
    expect(count(0)).toContain(">0 letters<");
  });
});
