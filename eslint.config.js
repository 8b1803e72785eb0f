// ESLint (npm run lint, part of npm test). Type-aware rules where a mistake is silent at run time:
// a promise nobody awaits, a promise handed to something that expects a plain function, a switch
// that forgets a case of a union. `any` is a warning whose count may only go down (the
// --max-warnings budget in package.json's lint script). Formatting is Prettier's (.prettierrc.json).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist/**", ".tmp/**", "node_modules/**", "**/*.d.ts"] },
  {
    files: [
      "src/**/*.{ts,tsx}",
      "tests/**/*.{ts,tsx}",
      "bench/**/*.ts",
      "support/**/*.ts",
      "scripts/**/*.mjs",
      "*.ts",
      "eslint.config.js",
    ],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: { allowDefaultProject: ["scripts/*.mjs", "eslint.config.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // antd waits for a promise returned by onConfirm / onOk (typed as returning void): allowed in
      // JSX attributes and object properties; elsewhere a promise where void is expected is an error.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false, properties: false } }],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-explicit-any": "warn",
      // Control characters in patterns are deliberate here: file names, headers and imported
      // text are cleaned of them.
      "no-control-regex": "off",
      // Full-width spaces in Chinese text are content, not mistakes.
      "no-irregular-whitespace": [
        "error",
        { skipStrings: true, skipTemplates: true, skipJSXText: true, skipRegExps: true, skipComments: true },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["src/client/**/*.{ts,tsx}", "tests/client/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
);
