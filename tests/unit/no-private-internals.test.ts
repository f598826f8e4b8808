import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

type StillUsed = { members: string[]; imports: string[] };
const { PRIVATE_INTERNALS_STILL_USED } = (await import(pathToFileURL(path.resolve("eslint.config.js")).href)) as { PRIVATE_INTERNALS_STILL_USED: StillUsed };

/**
 * The lint rules that keep the site off libraries' private internals (eslint.config.js), tried on
 * planted code in files of their own, as `npm run lint` would find it anywhere in the site.
 */
const eslint = new ESLint();

async function rulesBroken(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe("libraries' private internals", () => {
  it("fails a call of PGlite's private _runExclusiveQuery", async () => {
    const planted = `import { PGlite } from "@electric-sql/pglite";

export class Quicker extends PGlite {
  async once(sql: string) {
    return this._runExclusiveQuery(() => this.query(sql));
  }
}
`;
    expect(await rulesBroken("app/platform/db/planted.server.ts", planted)).toEqual([
      "no-restricted-syntax: A member whose name starts with an underscore is a library's private API: use its public one.",
    ]);
  });

  it("fails an import of React DOM's build for Bun", async () => {
    const planted = `import { renderToPipeableStream } from "react-dom/server.bun";

export const render = renderToPipeableStream;
`;
    const broken = await rulesBroken("app/web/planted.server.ts", planted);
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(/^no-restricted-imports: 'react-dom\/server\.bun' import is restricted .*A build published for another runtime/);
  });

  it("lets the files that still use them do so only while they do, so the list empties as they move to public APIs", () => {
    for (const file of PRIVATE_INTERNALS_STILL_USED.members) expect(fs.readFileSync(file, "utf8"), file).toMatch(/\._[A-Za-z]/);
    for (const file of PRIVATE_INTERNALS_STILL_USED.imports) expect(fs.readFileSync(file, "utf8"), file).toMatch(/from "react-dom\/server\.(bun|edge|browser)"/);
  });
});
