import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./tests/setup/sequencer.mts";

const root = fileURLToPath(new URL(".", import.meta.url));
// Tests import libraries from source, so unit tests need no build step.
const alias = [{ find: /^@billing\/([a-z-]+)$/, replacement: `${root}libs/$1/src/index.ts` }];

/**
 * End-to-end files that need a platform of their own: they kill and restart services (the crash
 * tests, the lifecycle), or start extra replicas, or run with settings the shared platform
 * does not have (rate limits, tracing).
 */
/**
 * A worker runs file after file with the modules it already loaded (the sources, Lago's OpenAPI
 * document and its compiled validators) instead of loading them again for each file: no test mocks
 * a module or leaves module state for the files after it. Every project but the fault suite.
 */
const isolate = false;

const OWN_PLATFORM_FILES = [
  "tests/e2e/*-crash.test.ts",
  "tests/e2e/lifecycle.test.ts",
  "tests/e2e/docs.test.ts",
  "tests/e2e/wallet-concurrency.test.ts",
  "tests/e2e/rate-limits.test.ts",
  "tests/e2e/observability.test.ts",
];

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: LongFirstSequencer },
    // end-to-end files on the shared platform mostly wait for it: more files at once than cores
    maxWorkers: 3,

    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          isolate,
          include: ["libs/*/src/**/*.test.ts", "services/*/src/**/*.test.ts", "tests/deploy/**/*.test.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          isolate,
          globalSetup: [`${root}tests/setup/infra.global.ts`],
          include: ["libs/*/test/**/*.test.ts", "services/*/test/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // one platform for the whole project (tests/setup/shared-platform.global.ts); every file
          // works in organizations of its own, so files run side by side on it
          name: "e2e",
          isolate,
          globalSetup: [
            `${root}tests/setup/infra.global.ts`,
            `${root}tests/setup/build.global.ts`,
            `${root}tests/setup/shared-platform.global.ts`,
          ],
          include: ["tests/e2e/**/*.test.ts"],
          exclude: OWN_PLATFORM_FILES,
          // files run side by side on one platform: a story waits for the others' work too
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e-own",
          isolate,
          globalSetup: [`${root}tests/setup/infra.global.ts`, `${root}tests/setup/build.global.ts`],
          include: OWN_PLATFORM_FILES,
          // after the others, two at a time: each boots seven processes of its own and loads them
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // real processes on MongoDB and NATS servers of their own, which the suite restarts
          name: "faults",
          globalSetup: [`${root}tests/setup/build.global.ts`],
          include: ["tests/faults/**/*.test.ts"],
          testTimeout: 420_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
