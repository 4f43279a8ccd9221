// ESLint (flat config): what the compiler cannot see. Type-aware rules read each file through its
// own package's tsconfig.json, or tsconfig.json at the root (the tests' program) for the tests.
// Formatting is Prettier's business (.prettierrc.json): eslint-config-prettier, last, turns off
// every rule that would argue with it.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/generated/**",
      ".infra/**",
      ".turbo/**",
      ".schemathesis/**",
      "coverage/**",
      "test-results/**",
      "deploy/compose-spec/**",
    ],
  },

  js.configs.recommended,
  ...tseslint.configs.recommended,

  {
    files: ["**/*.ts", "**/*.mts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // a promise nobody awaits drops its rejection: on a money path that is a lost failure.
      // `void` marks the deliberate fire-and-forget (main.ts's runService, a timer's tick that logs)
      "@typescript-eslint/no-floating-promises": "error",
      // an async function where a callback's result is ignored (an event handler, forEach) is the
      // same dropped rejection, one step removed
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: true, attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
      // a new status, event kind or charge model must be handled wherever its union is switched on;
      // a `default:` does not count as handling it, so adding a member fails the lint where it matters
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      // `_name` marks a parameter a signature needs but the body does not (stand-ins, handlers)
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },

  // the domain is pure types and rules (services/README.md): no I/O, so nothing that reaches a
  // database, the bus or another service
  {
    files: ["services/*/src/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)(peers|persistence)(/|$)",
              message: "the domain is pure: peers/ and persistence/ are I/O; take what you need as a parameter",
            },
            {
              regex: "^(@billing/bus|mongoose|nats)(/|$)|^@grpc/",
              message: "the domain is pure: no database, bus or gRPC client in it",
            },
          ],
        },
      ],
    },
  },

  // plain JavaScript (scripts, benches, tools): no type information, and Node's globals
  {
    files: ["**/*.mjs", "**/*.cjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        fetch: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        performance: "readonly",
        structuredClone: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        __dirname: "readonly",
        require: "readonly",
        module: "writable",
      },
    },
  },

  prettier,
);
