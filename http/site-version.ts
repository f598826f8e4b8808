import fs from "node:fs";
import path from "node:path";

/**
 * The version of the site this build was made from, as `npm run build` recorded it
 * (scripts/launch/build.mjs, `sourceVersion`): "version 5d34aed of 2026-11-28", with a note when
 * the sources had changes not committed. Undefined for a build made outside a git clone.
 */
export function builtVersionLabel(buildDir = path.resolve("build")): string | undefined {
  try {
    const recorded = JSON.parse(fs.readFileSync(path.join(buildDir, "version.json"), "utf8")) as {
      commit?: unknown;
      date?: unknown;
      changed?: unknown;
    };
    if (typeof recorded.commit !== "string" || typeof recorded.date !== "string") return undefined;
    return `version ${recorded.commit} of ${recorded.date}${recorded.changed === true ? " with changes not committed" : ""}`;
  } catch {
    return undefined;
  }
}
