import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { EXPORT_FILES } from "~/ops/import/format.server";
import { markdownTable } from "../helpers/markdown";

/** The operators' guide gives the exact header of every file of the old site's export: it must be the importer's. */
describe("the import's columns in docs/operators.md", () => {
  it("lists every file with the columns the importer requires and allows, and no other", () => {
    const guide = fs.readFileSync("docs/operators.md", "utf8");
    const rows = markdownTable(guide, ["file", "required columns (its header row)", "may also have"]).map(
      ([file, required, optional]) => ({
        file: file!.replace(/`/g, ""),
        required: required!.replace(/`/g, "").split(","),
        optional: [...optional!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]),
      }),
    );
    expect(rows).toEqual(
      Object.values(EXPORT_FILES).map((spec) => ({
        file: spec.file,
        required: [...spec.required],
        optional: [...spec.optional],
      })),
    );
  });
});
