import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// No library's private internals, which any release may change: no member whose name starts
// with an underscore (a library's private API by convention), and no build of React DOM published
// for another runtime. Every file of the site is held to both (tests/unit/no-private-internals.test.ts).
const PRIVATE_MEMBERS = {
  selector: "MemberExpression[property.name=/^_[A-Za-z]/]",
  message: "A member whose name starts with an underscore is a library's private API: use its public one.",
};
const OTHER_RUNTIMES = {
  group: ["react-dom/server.bun", "react-dom/server.edge", "react-dom/server.browser"],
  message: "A build published for another runtime: import react-dom/server, which is Node's.",
};

// The site's links are its own plain anchors (app/components/Link.tsx, decision 0041).
const ROUTER_LINKS = {
  name: "react-router",
  importNames: ["Link", "NavLink"],
  message:
    "Use the site's Link (~/components/Link): a plain anchor followed in the app, without React Router's per-link work.",
};

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build.next/",
      "build.old-*/",
      ".react-router/",
      "node_modules/",
      "playwright-report/",
      "test-results/",
      "data/",
      "drizzle/meta/",
      "bench/.cache/",
      "bench/results/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // <summary> is the native control of a <details> disclosure.
      "jsx-a11y/no-redundant-roles": "off",
      // A label may wrap its control with the text in nested elements.
      "jsx-a11y/label-has-associated-control": ["error", { assert: "either", depth: 3 }],
      "no-restricted-imports": ["error", { paths: [ROUTER_LINKS], patterns: [OTHER_RUNTIMES] }],
      "no-restricted-syntax": ["error", PRIVATE_MEMBERS],
    },
  },
  { files: ["tests/**"], rules: { "no-restricted-imports": "off" } },
  // One concern a module: the site's code stays at 300 lines (Prettier-formatted, so the count is
  // honest). A test file holds one feature's cases and its fixtures, so it may run to 800.
  { files: ["app/**", "http/**"], rules: { "max-lines": ["error", { max: 300 }] } },
  { files: ["tests/**", "e2e/**"], rules: { "max-lines": ["error", { max: 800 }] } },
);
