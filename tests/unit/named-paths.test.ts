import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commentsOf, describeMissing, missingPaths, pathsNamedIn, type NamedPath } from "../helpers/named-paths";

/** The files git has, or would add (untracked but not ignored), that are still on disk. */
function repositoryFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    encoding: "utf8",
  });
  return listed.split("\0").filter((file) => file !== "" && fs.existsSync(file));
}

/**
 * Whether `name` is a file or folder of the repository. A module may be named as it is imported,
 * without its ending (`app/web/forms/kernel`), and a test file by its stem (`tests/unit/config`).
 */
function existsIn(files: string[]): (name: string) => boolean {
  const known = new Set(files);
  for (const file of files)
    for (let dir = path.posix.dirname(file); dir !== "."; dir = path.posix.dirname(dir)) known.add(dir);
  return (name) => {
    const bare = name.replace(/\/+$/, "");
    return ["", ".ts", ".tsx", ".js", ".mjs", ".test.ts", ".spec.ts"].some((ending) => known.has(bare + ending));
  };
}

/**
 * Which of `names` git ignores: places the code makes (`bench/.cache`), named as such, not files of
 * the repository. A folder's pattern (`bench/.cache/`) matches the name with a slash after it.
 */
function ignoredByGit(names: string[]): Set<string> {
  const asked = names.flatMap((name) => [name, `${name.replace(/\/+$/, "")}/`]);
  let answer = "";
  try {
    answer = execFileSync("git", ["check-ignore", "--no-index", "--stdin", "-z"], {
      input: asked.join("\0"),
      encoding: "utf8",
    });
  } catch {
    // exit status 1: none is ignored
  }
  const ignored = new Set(answer.split("\0").filter(Boolean));
  return new Set(names.filter((name) => ignored.has(name) || ignored.has(`${name.replace(/\/+$/, "")}/`)));
}

/**
 * Names in decision records of files that are gone, where the record says so: records are not
 * rewritten, and a record that describes what was before names what was there then.
 */
const NAMED_AS_GONE: (Pick<NamedPath, "file" | "path"> & { why: string })[] = [
  { file: "docs/decisions/0023-layout-by-feature.md", path: "app/server/", why: "the layout before the move" },
  { file: "docs/decisions/0023-layout-by-feature.md", path: "app/forms/", why: "the layout before the move" },
  ...["0025-route-table-once", "0037-react-router-8"].map((record) => ({
    file: `docs/decisions/${record}.md`,
    path: "tests/unit/route-table-once.test.ts",
    why: "went with the patch to React Router (0037), which superseded 0025",
  })),
  ...["0023-layout-by-feature", "0042-identity-core-and-import-rules"].map((record) => ({
    file: `docs/decisions/${record}.md`,
    path: "http/background-jobs.ts",
    why: "became app/server-parts.server.ts when http/ stopped importing features (0042)",
  })),
  {
    file: "docs/decisions/0023-layout-by-feature.md",
    path: "app/features/accounts/auth.server.ts",
    why: "moved to the identity core, app/identity/ (0042)",
  },
  {
    file: "docs/decisions/0039-libraries-kept-behind.md",
    path: "app/lib/version.cjs",
    why: "`lib/version.cjs` there is a file of the typescript package, not app/lib/",
  },
];

const CODE_FOLDERS = ["app", "http", "scripts", "public", "tests", "e2e", "bench"];
const CODE = /\.(?:ts|tsx|mts|js|mjs|cjs|css)$/;

function namedInRepository(files: string[]): NamedPath[] {
  const named: NamedPath[] = [];
  for (const file of files) {
    if ((file.startsWith("docs/") && file.endsWith(".md")) || file === "README.md") {
      named.push(...pathsNamedIn(fs.readFileSync(file, "utf8"), file, { markdown: true }));
    } else if (CODE_FOLDERS.some((folder) => file.startsWith(`${folder}/`)) && CODE.test(file)) {
      const comments = commentsOf(fs.readFileSync(file, "utf8"), { css: file.endsWith(".css") });
      named.push(...pathsNamedIn(comments, file));
    }
  }
  return named;
}

describe("the paths the docs and the code's comments name", () => {
  it("are all in the repository", () => {
    const files = repositoryFiles();
    const named = namedInRepository(files);
    // The scan reads every doc and comment: hundreds of names, not a handful.
    expect(named.length).toBeGreaterThan(500);
    const notFound = missingPaths(named, existsIn(files));
    const ignored = ignoredByGit([...new Set(notFound.map((name) => name.path))]);
    const gone = (name: Pick<NamedPath, "file" | "path">) =>
      NAMED_AS_GONE.some((entry) => entry.file === name.file && entry.path === name.path);
    const missing = notFound.filter((name) => !ignored.has(name.path) && !gone(name));
    expect(missing, `Paths named that are not in the repository:\n${describeMissing(missing)}\n`).toEqual([]);
    // An entry of NAMED_AS_GONE that names nothing missing any more is dropped.
    expect(
      NAMED_AS_GONE.filter((entry) => !notFound.some((name) => name.file === entry.file && name.path === entry.path)),
    ).toEqual([]);
  });

  it("finds a wrong path in prose, in a Markdown link and in a comment, and says who names it", () => {
    const exists = existsIn(["app/lib/dates.ts", "docs/decisions/0023-layout-by-feature.md", "server.mjs"]);
    const doc = [
      "The dates are in `app/lib/dates.ts:12`, not app/lib/times.ts.",
      "See [0023](decisions/0023-layout-by-feature.md#why) and [0099](decisions/0099-none.md).",
      "server.mjs starts it; the tests are tests/**/*.test.ts, a page goes in app/routes/<area>/.",
      "As app/ names them: lib/dates.ts, and lib/clocks.ts (gone).",
    ].join("\n");
    const missing = missingPaths(pathsNamedIn(doc, "docs/example.md", { markdown: true }), exists);
    expect(missing).toEqual([
      { file: "docs/example.md", line: 1, path: "app/lib/times.ts" },
      { file: "docs/example.md", line: 2, path: "docs/decisions/0099-none.md" },
      { file: "docs/example.md", line: 4, path: "app/lib/clocks.ts" },
    ]);
    expect(describeMissing(missing)).toBe(
      "docs/example.md:1 names app/lib/times.ts, which does not exist\n" +
        "docs/example.md:2 names docs/decisions/0099-none.md, which does not exist\n" +
        "docs/example.md:4 names app/lib/clocks.ts, which does not exist",
    );

    const source = [
      "// Kept in app/lib/dates.ts.",
      'const where = "app/not/a/comment.ts"; // see app/lib/gone.ts',
      "const slash = /[\"'/]/g; /* app/lib/also-gone.ts */",
      "const text = `${where ? `//app/x` : ''}`; // app/lib/dates",
    ].join("\n");
    expect(missingPaths(pathsNamedIn(commentsOf(source), "app/example.ts"), exists)).toEqual([
      { file: "app/example.ts", line: 2, path: "app/lib/gone.ts" },
      { file: "app/example.ts", line: 3, path: "app/lib/also-gone.ts" },
    ]);
  });
});
