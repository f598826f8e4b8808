import fs from "node:fs";
import { describe, expect, it } from "vitest";

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const css = fs.readFileSync("app/app.css", "utf8");
const color = (name: string) => {
  const match = css.match(new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`, "i"));
  if (!match) throw new Error(`colour ${name} not found in app.css`);
  return match[1]!;
};

describe("theme contrast (WCAG AA, 4.5:1 for text)", () => {
  const pairs: [string, string][] = [
    ["parchment", "ink"],
    ["parchment", "soot"],
    ["parchment", "ash"],
    ["dust", "ink"],
    ["dust", "soot"],
    ["brass", "ink"],
    ["brass", "soot"],
    ["brass", "ash"],
    ["parchment", "rust-dark"],
    ["parchment", "rust"],
    ["ink", "brass"],
    ["blood", "ink"],
    // .btn-danger: blood text on a panel, and ink on blood when hovered.
    ["blood", "soot"],
    ["ink", "blood"],
    ["sage", "soot"],
  ];
  it.each(pairs)("%s text on %s", (text, background) => {
    expect(contrast(color(text), color(background))).toBeGreaterThanOrEqual(4.5);
  });
});
