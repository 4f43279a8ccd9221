import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
// Tests import libraries from source, so unit tests need no build step.
const alias = [{ find: /^@billing\/([a-z-]+)$/, replacement: `${root}libs/$1/src/index.ts` }];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["libs/*/src/**/*.test.ts", "services/*/src/**/*.test.ts", "tests/deploy/**/*.test.ts"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          globalSetup: [`${root}tests/setup/infra.global.ts`],
          include: ["libs/*/test/**/*.test.ts", "services/*/test/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          globalSetup: [`${root}tests/setup/infra.global.ts`, `${root}tests/setup/build.global.ts`],
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
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
