import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withProductionBuild } from "../helpers/production-build";

withProductionBuild();

/** What the browser downloads: every script of the client build. */
function clientScripts(): { name: string; text: string }[] {
  const dir = path.resolve("build/client/assets");
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".js"))
    .map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), "utf8") }));
}

describe("the production build", () => {
  // This file runs under NODE_ENV=test, and the build above was made from it when the sources
  // had changed: the case that once shipped React's development build to every visitor.
  it("gives the browser React's production build, whatever NODE_ENV the build was started under", () => {
    expect(process.env.NODE_ENV).toBe("test");
    const scripts = clientScripts();
    // Only React DOM's development build links its hydration warnings; only its production build
    // sends errors to the decoder page instead of spelling them out.
    expect(
      scripts
        .filter((script) => script.text.includes("react.dev/link/hydration-mismatch"))
        .map((script) => script.name),
    ).toEqual([]);
    expect(scripts.some((script) => script.text.includes("react.dev/errors/"))).toBe(true);
  });
});
