import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "build.next/", "build.old-*/", ".react-router/", "node_modules/", "playwright-report/", "test-results/", "data/", "drizzle/meta/", "bench/.cache/", "bench/results/"] },
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
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "react-router", importNames: ["Link"], message: "Use Link from ~/components/Link: the server writes it without the router's per-link work." }] },
      ],
    },
  },
  { files: ["app/components/Link.tsx", "tests/**"], rules: { "no-restricted-imports": "off" } },
);
