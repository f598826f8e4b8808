// The import rules of app/ and http/, checked by `npm run lint:imports` (dependency-cruiser).
// Which feature may import which is read from the table in docs/development.md ("Which features
// may import which"), so the rules and the docs cannot say different things.
import fs from "node:fs";
import path from "node:path";

const TABLE_HEADING = "Which features may import which";

/**
 * The table under TABLE_HEADING in docs/development.md: each feature and the features it may
 * import ("—" for none), as a Map from a feature to those it may import.
 */
function allowedFeatureImports(docsFile = path.join(import.meta.dirname, "docs", "development.md")) {
  const lines = fs.readFileSync(docsFile, "utf8").split("\n");
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.includes(TABLE_HEADING));
  if (start < 0) throw new Error(`${docsFile} has no heading "${TABLE_HEADING}"`);
  const allowed = new Map();
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#+ /.test(line)) break;
    if (!line.startsWith("|")) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll("`", ""));
    if (cells[0] === "feature" || /^-+$/.test(cells[0])) continue;
    const imports = cells[1] === "—" ? [] : cells[1].split(",").map((name) => name.trim());
    allowed.set(cells[0], imports);
  }
  if (allowed.size === 0) throw new Error(`the table under "${TABLE_HEADING}" in ${docsFile} is empty`);
  return allowed;
}

/** The layers below the features: they import no feature, no page and no operator's command. */
const CORE = "^app/(platform|lib|game|content|identity|web|components)/";
const UPPER = "^app/(features|routes|ops)/";

function rules(allowed = allowedFeatureImports()) {
  const known = [...allowed.keys()];
  return [
    {
      name: "no-circular",
      comment: "No module imports itself through others: every import runs one way.",
      severity: "error",
      from: { path: "^(app|http)/" },
      to: { circular: true },
    },
    {
      name: "core-imports-no-feature",
      comment:
        "platform/, lib/, game/, content/, identity/, web/ and components/ stand below the features: they import no feature, page or operator's command.",
      severity: "error",
      from: { path: CORE },
      to: { path: UPPER },
    },
    {
      name: "http-imports-no-feature",
      comment: "http/ takes what it needs of the features from app/server-parts.server.ts.",
      severity: "error",
      from: { path: "^http/" },
      to: { path: "^app/features/" },
    },
    {
      name: "feature-not-in-table",
      comment: "A feature that imports another feature is listed in docs/development.md's table.",
      severity: "error",
      from: { path: "^app/features/([^/]+)/", pathNot: `^app/features/(${known.join("|")})/` },
      to: { path: "^app/features/", pathNot: "^app/features/$1/" },
    },
    ...known.map((feature) => ({
      name: `feature-${feature}`,
      comment: `${feature} may import only ${allowed.get(feature).join(", ") || "no other feature"} (docs/development.md).`,
      severity: "error",
      from: { path: `^app/features/${feature}/` },
      to: { path: "^app/features/", pathNot: `^app/features/(${[feature, ...allowed.get(feature)].join("|")})/` },
    })),
  ];
}

export default {
  forbidden: rules(),
  options: {
    tsConfig: { fileName: path.join(import.meta.dirname, "tsconfig.json") },
    // Type-only imports count: a cycle of types is still two modules that know each other.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|\\.react-router)/" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
      conditionNames: ["import", "require", "node", "default"],
    },
    skipAnalysisNotInRules: true,
  },
};
