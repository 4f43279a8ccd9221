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
    rules: {
      // off: the code's terse pairs of assignments, `if (c) (a = x), (b = y);` (pricing, ingestion,
      // benches), are comma sequences, which this rule reports whatever they do; an expression that
      // does nothing is mostly reported by TypeScript already (ts(2695))
      "@typescript-eslint/no-unused-expressions": "off",
    },
  },

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
      // a new status, event kind or charge model must be handled wherever its union is switched on
      // without a `default:`; the code's `default:` branches are deliberate (Lago's generic error body
      // for the other kinds, zod's other issue codes, a renderer looked up by kind), so they count
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      // a `let` declared before the closures that read it and assigned once afterwards (an outbox
      // relay started after the wiring that flushes it, a timer cleared by an earlier settle) stays `let`
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
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

  // plain JavaScript (scripts, benches, tools) and vitest.config.mts, which no tsconfig includes:
  // no type information, and Node's globals
  {
    files: ["**/*.mjs", "**/*.cjs", "**/*.js", "vitest.config.mts"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
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

  // CommonJS files (the image's health check, a profiling hook) load with require()
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },

  prettier,
);
