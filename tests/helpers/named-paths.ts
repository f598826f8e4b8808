import path from "node:path";

/** A repository path named in a file, with the line that names it. */
export type NamedPath = { file: string; line: number; path: string };

/** The folders a path named in prose or a comment is recognised by: `app/features/...`, `docs/decisions/...`. */
const FOLDERS = ["app", "http", "docs", "scripts", "tests", "e2e", "bench", "public", "deploy", "drizzle", ".ci"];

/**
 * The folders of app/, which its code and the docs name as app/ names them (`features/letters/`,
 * `platform/jobs.server.ts`): read from app/.
 */
const APP_FOLDERS = ["features", "platform", "web", "ops", "routes", "components", "lib", "game", "content"];

/** The top-level files named bare, without a folder: `server.mjs`, `Dockerfile`. */
const TOP_LEVEL_FILES = [
  "server.mjs",
  "Dockerfile",
  "package.json",
  "package-lock.json",
  "compose.yaml",
  "tsconfig.json",
  "vite.config.ts",
  "vitest.config.ts",
  "playwright.config.ts",
  "eslint.config.js",
  "drizzle.config.ts",
  "react-router.config.ts",
  ".env.example",
  ".node-version",
  ".npmrc",
  ".prettierrc.json",
  ".prettierignore",
  ".dockerignore",
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A path starts where no word, dot, slash or hyphen goes before it (so `~/platform/x`, `../app/x`
 * and `https://host/app/x` are not read as paths), with one of FOLDERS and a slash, and goes on
 * over the characters file names here are made of. What stops it (`:12`, `#anchor`, a quote, a
 * bracket) is not part of it.
 */
const FOLDER_PATH = new RegExp(
  `(?<![\\w./~-])(?:${[...FOLDERS, ...APP_FOLDERS].map(escape).join("|")})/[\\w.+@/-]*`,
  "g",
);
const TOP_LEVEL_FILE = new RegExp(`(?<![\\w./~-])(?:${TOP_LEVEL_FILES.map(escape).join("|")})(?![\\w/-]|\\.\\w)`, "g");

/** A Markdown link's or reference's target: `[text](target)`, `[text](target "title")`, `[ref]: target`. */
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm;

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * The repository paths `text` names, `file` being where it stands (relative to the repository).
 * A glob (`tests/**\/*.ts`, `app/{a,b}.ts`) and a placeholder (`app/routes/<area>/`) name no one
 * file and are passed over; a sentence's full stop after a path is not part of it. In Markdown,
 * a link's relative target is read from the file's own folder, as GitHub reads it.
 */
export function pathsNamedIn(text: string, file: string, { markdown = false } = {}): NamedPath[] {
  const named: NamedPath[] = [];
  const add = (offset: number, name: string) => named.push({ file, line: lineAt(text, offset), path: name });

  for (const pattern of [FOLDER_PATH, TOP_LEVEL_FILE]) {
    for (const match of text.matchAll(pattern)) {
      const next = text[match.index + match[0].length] ?? "";
      if ("*{<".includes(next) && next !== "") continue;
      const name = match[0].replace(/\.+$/, "");
      // "HTTP/1.1" written in lower case is a protocol, not the http/ folder.
      if (/^http\/\d/.test(name)) continue;
      add(match.index, APP_FOLDERS.includes(name.slice(0, name.indexOf("/"))) ? `app/${name}` : name);
    }
  }

  if (markdown) {
    for (const match of text.matchAll(MARKDOWN_LINK)) {
      const target = (match[1] ?? match[2] ?? "").replace(/[#?].*$/, "");
      if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
      if (/[*{}<>]/.test(target)) continue;
      add(match.index, path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target))));
    }
  }
  return named.sort((a, b) => a.line - b.line);
}

/** Keywords after which a slash begins a regular expression, not a division. */
const BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "case",
  "in",
  "of",
  "delete",
  "void",
  "throw",
  "new",
  "yield",
  "await",
]);

/**
 * The comments of a JavaScript, TypeScript or CSS source, every other character blanked but its
 * line breaks kept, so a path found in it is on the line it is in the source. Strings, template
 * literals (with their `${...}` parts) and regular expressions are passed over, so a `//` or `/*`
 * inside one starts no comment.
 */
export function commentsOf(source: string, { css = false } = {}): string {
  const out = source.replace(/[^\n]/g, " ").split("");
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) out[i] = source[i]!;
  };
  /** For each template literal open around the code being read, how many braces deep its `${` part is. */
  const templates: number[] = [];
  let depth = 0;
  let last = ""; // the last significant token's end: a character, or a word
  let i = 0;

  const skipQuoted = (quote: string) => {
    for (i++; i < source.length && source[i] !== quote && source[i] !== "\n"; i++) if (source[i] === "\\") i++;
    i++;
  };
  /** Reads template text from `i` up to its closing backtick (returns) or a `${` (enters code). */
  const readTemplate = () => {
    for (; i < source.length; i++) {
      if (source[i] === "\\") i++;
      else if (source[i] === "`") {
        i++;
        last = "`";
        return;
      } else if (source[i] === "$" && source[i + 1] === "{") {
        i += 2;
        templates.push(depth);
        depth++;
        last = "{";
        return;
      }
    }
  };

  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/" && !css) {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      keep(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      keep(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      skipQuoted(c);
      last = c;
    } else if (c === "`" && !css) {
      i++;
      readTemplate();
    } else if (c === "/" && !css && (last === "" || "(,=:[!&|?{};+-*%>~^".includes(last) || BEFORE_REGEX.has(last))) {
      let inClass = false;
      for (i++; i < source.length && source[i] !== "\n"; i++) {
        if (source[i] === "\\") i++;
        else if (source[i] === "[") inClass = true;
        else if (source[i] === "]") inClass = false;
        else if (source[i] === "/" && !inClass) break;
      }
      i++;
      last = "/regex";
    } else if (/\s/.test(c)) {
      i++;
    } else if (/[\w$]/.test(c)) {
      const start = i;
      while (i < source.length && /[\w$]/.test(source[i]!)) i++;
      last = source.slice(start, i);
    } else {
      if (c === "{") depth++;
      else if (c === "}") {
        depth--;
        if (templates.length > 0 && templates.at(-1) === depth) {
          templates.pop();
          i++;
          readTemplate();
          continue;
        }
      }
      last = c;
      i++;
    }
  }
  return out.join("");
}

/** `named` whose path is not in the repository, as `exists` says. */
export function missingPaths(named: NamedPath[], exists: (path: string) => boolean): NamedPath[] {
  return named.filter((name) => !exists(name.path));
}

/** One line per missing path, with the file and line that name it. */
export function describeMissing(missing: NamedPath[]): string {
  return missing.map((name) => `${name.file}:${name.line} names ${name.path}, which does not exist`).join("\n");
}
