// The production build, and a record of the sources it was made from, so that `npm start`
// builds only when something changed (a restart by a supervisor then takes a second, not a
// minute, and a prebuilt site starts without the development dependencies).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runChild } from "./child.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Everything the build reads. The migrations are not in it: the server reads drizzle/ itself. */
const INPUTS = ["app", "http", "public", "scripts/precompress.mjs", "vite.config.ts", "react-router.config.ts", "tsconfig.json", "package.json", "package-lock.json"];
const STAMP = path.join(ROOT, "build", "sources.sha256");

function files(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) => path.relative(ROOT, path.join(dirent.parentPath, dirent.name)));
}

/** A hash of the build's inputs (names and contents): about 20 ms for the whole app. */
export function sourcesHash() {
  const hash = crypto.createHash("sha256");
  for (const file of INPUTS.flatMap(files).sort()) {
    hash.update(file).update("\0").update(fs.readFileSync(path.join(ROOT, file))).update("\0");
  }
  return hash.digest("hex");
}

/** True when build/ holds a complete build of the current sources. */
export function buildIsCurrent() {
  try {
    return fs.readFileSync(STAMP, "utf8").trim() === sourcesHash() && fs.existsSync(path.join(ROOT, "build/server/index.js"));
  } catch {
    return false;
  }
}

/** Builds the site; the stamp is written only after every step succeeded. Resolves to an exit code. */
export async function buildSite() {
  const cli = path.join(ROOT, "node_modules/@react-router/dev/bin.js");
  if (!fs.existsSync(cli)) {
    console.error(
      "Building needs the development dependencies (`npm install`). To run a build made elsewhere with production dependencies only, use `npm run serve`.",
    );
    return 1;
  }
  fs.rmSync(STAMP, { force: true });
  const hash = sourcesHash();
  // Always the production build. Vite builds the browser's code for the NODE_ENV it inherits
  // when one is set: under "test" (a test run building the site) or "development" (a shell
  // left so) it bundled React's development build, twice the size and slower, and served it.
  const env = { ...process.env, NODE_ENV: "production" };
  for (const args of [[cli, "build"], [path.join(ROOT, "scripts/precompress.mjs")]]) {
    const code = await runChild(process.execPath, args, { cwd: ROOT, env });
    if (code !== 0) return code;
  }
  fs.writeFileSync(STAMP, `${hash}\n`);
  return 0;
}

// `--if-stale`: only when build/ is missing or older than the sources (`npm test` before the
// browser tests, after the process tests may already have built it).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--if-stale") && buildIsCurrent()) console.log("The build is up to date with the sources.");
  else process.exitCode = await buildSite();
}
