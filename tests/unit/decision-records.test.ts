import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIR = "docs/decisions";
const records = fs
  .readdirSync(DIR)
  .filter((name) => /^\d{4}-.+\.md$/.test(name))
  .sort();
const numberOf = (name: string) => name.slice(0, 4);
const STATUS_LINE = /^Date: (\d{4}-\d{2}-\d{2}) · Status: (accepted|(?:partly )?superseded by (\d{4}(?:, \d{4})*))$/;

describe("the decision records", () => {
  it("are there", () => {
    expect(records.length).toBeGreaterThan(30);
  });

  it.each(records)("%s opens with its date and status, naming only later records that exist", (name) => {
    const lines = fs.readFileSync(path.join(DIR, name), "utf8").split("\n");
    expect(lines[0]).toMatch(/^# /);
    const match = STATUS_LINE.exec(lines[2] ?? "");
    expect(
      match,
      `line 3 of ${name} should read "Date: YYYY-MM-DD · Status: accepted" (or superseded by NNNN)`,
    ).not.toBeNull();
    expect(Number.isNaN(Date.parse(match![1]!))).toBe(false);
    for (const later of match![3]?.split(", ") ?? []) {
      expect(later > numberOf(name), `${name} is superseded by an earlier record, ${later}`).toBe(true);
      expect(
        records.some((other) => numberOf(other) === later),
        `${name} names ${later}, which does not exist`,
      ).toBe(true);
    }
  });

  it("are each listed in the index, by number and file", () => {
    const index = fs.readFileSync(path.join(DIR, "README.md"), "utf8");
    for (const name of records)
      expect(index, `${name} is missing from docs/decisions/README.md`).toContain(`| [${numberOf(name)}](${name}) |`);
  });
});
