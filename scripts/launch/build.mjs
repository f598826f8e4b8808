// The production build, and a record of the sources it was made from, so that `npm start`
// builds only when something changed (a restart by a supervisor then takes a second, not a
// minute, and a prebuilt site starts without the development dependencies).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { runChild } from "./child.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Everything the build reads. The migrations are not in it: the server reads drizzle/ itself. */
const INPUTS = [
  "app",
  "http",
  "public",
  "scripts/precompress.mjs",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];
const BUILD = path.join(ROOT, "build");
const STAMP = path.join(BUILD, "sources.sha256");
/** A new build is made here, beside the one a running server may be serving, and then put in its place. */
const NEXT = "build.next";
/** The hashed files a build made itself (not those it kept from the build before it). */
const OWN_FILES = "own-assets.json";
/** The commit a build was made from (sourceVersion), read by the server at start. */
export const VERSION_FILE = "version.json";
const HASHED = ["client/assets", "server/assets"];

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
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(ROOT, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** True when build/ holds a complete build of the current sources. */
export function buildIsCurrent() {
  try {
    return (
      fs.readFileSync(STAMP, "utf8").trim() === sourcesHash() && fs.existsSync(path.join(ROOT, "build/server/index.js"))
    );
  } catch {
    return false;
  }
}

/**
 * Removes the build.old-* folders in `root`: a build killed between putting its build in place and
 * removing the one before leaves one, a whole build's size, which nothing else ever removes.
 */
export function removeLeftoverBuilds(root) {
  for (const name of fs.readdirSync(root)) {
    if (/^build\.old-\d+$/.test(name)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/** Builds the site; the stamp is written only after every step succeeded. Resolves to an exit code. */
export async function buildSite() {
  const cli = path.join(ROOT, "node_modules/@react-router/dev/bin.cjs");
  if (!fs.existsSync(cli)) {
    console.error(
      "Building needs the development dependencies (`npm install`). To run a build made elsewhere with production dependencies only, use `npm run serve`.",
    );
    return 1;
  }
  const next = path.join(ROOT, NEXT);
  fs.rmSync(next, { recursive: true, force: true });
  removeLeftoverBuilds(ROOT);
  const hash = sourcesHash();
  // Always the production build. Vite builds the browser's code for the NODE_ENV it inherits
  // when one is set: under "test" (a test run building the site) or "development" (a shell
  // left so) it bundled React's development build, twice the size and slower, and served it.
  // The build goes to build.next (react-router.config.ts), so the site keeps running on build/
  // meanwhile: building in place emptied build/ under it, and its pages lost their scripts and
  // styles for the minute the build took.
  const env = { ...process.env, NODE_ENV: "production", HOPEWELL_BUILD_DIR: NEXT };
  for (const args of [
    [cli, "build"],
    [path.join(ROOT, "scripts/precompress.mjs"), path.join(next, "client")],
  ]) {
    const code = await runChild(process.execPath, args, { cwd: ROOT, env });
    if (code !== 0) return code;
  }
  fs.writeFileSync(
    path.join(next, OWN_FILES),
    `${JSON.stringify(HASHED.flatMap((dir) => listFiles(path.join(next, dir)).map((file) => path.join(dir, file))))}\n`,
  );
  keepPreviousFiles(next);
  const version = sourceVersion();
  if (version) fs.writeFileSync(path.join(next, VERSION_FILE), `${JSON.stringify(version)}\n`);
  fs.writeFileSync(path.join(next, "sources.sha256"), `${hash}\n`);
  // Two renames: the folder a server reads is never half written.
  const old = `${BUILD}.old-${process.pid}`;
  if (fs.existsSync(BUILD)) fs.renameSync(BUILD, old);
  fs.renameSync(next, BUILD);
  fs.rmSync(old, { recursive: true, force: true });
  return 0;
}

/**
 * Which version of the site a build was made from: the git commit checked out, its date, and
 * whether the build's inputs had changes not committed. The server names it when it starts, so an
 * operator can tell which version runs (docs/operators.md, "Upgrading"). Null without git or
 * outside a clone (a build made from a copied folder).
 */
export function sourceVersion() {
  try {
    const git = (...args) =>
      execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const [commit, date] = git("log", "-1", "--format=%h %cs").split(" ");
    const changed = git("status", "--porcelain", "--", ...INPUTS) !== "";
    return commit ? { commit, date, changed } : null;
  } catch {
    return null;
  }
}

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * The hashed files of the build being replaced are kept beside the new ones (their names never
 * clash): the server still running from it until its restart loads its own modules lazily, and
 * its pages, and those open in browsers, ask for its scripts and styles. Only that build's own
 * files are kept, so two builds' worth at most.
 */
function keepPreviousFiles(next) {
  let previous;
  try {
    previous = JSON.parse(fs.readFileSync(path.join(BUILD, OWN_FILES), "utf8"));
  } catch {
    previous = HASHED.flatMap((dir) => listFiles(path.join(BUILD, dir)).map((file) => path.join(dir, file)));
  }
  for (const file of previous) {
    const target = path.join(next, file);
    if (fs.existsSync(target) || !fs.existsSync(path.join(BUILD, file))) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(BUILD, file), target);
  }
}

// `--if-stale`: only when build/ is missing or older than the sources (`npm test` before the
// browser tests, after the process tests may already have built it).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--if-stale") && buildIsCurrent()) console.log("The build is up to date with the sources.");
  else process.exitCode = await buildSite();
}
