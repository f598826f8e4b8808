import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

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
    expect(broken[0]).toMatch(
      /^no-restricted-imports: 'react-dom\/server\.bun' import is restricted .*A build published for another runtime/,
    );
  });

  it("exempts no file of the site, the two that once used them included", async () => {
    for (const file of [
      "app/platform/db/pglite-statements.server.ts",
      "app/web/render-whole.server.ts",
      "app/root.tsx",
      "bench/run.ts",
    ]) {
      const { rules } = (await eslint.calculateConfigForFile(file)) as {
        rules: Record<string, [number | string, ...unknown[]]>;
      };
      expect(rules["no-restricted-syntax"], file).toEqual([
        2,
        expect.objectContaining({ selector: "MemberExpression[property.name=/^_[A-Za-z]/]" }),
      ]);
      expect(rules["no-restricted-imports"]![0], file).toBe(2);
      expect(JSON.stringify(rules["no-restricted-imports"]), file).toContain("react-dom/server.bun");
    }
  });
});
