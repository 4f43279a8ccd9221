import { execFileSync } from "node:child_process";
import { repoRoot } from "@billing/testkit";

/** End-to-end tests run the compiled services; turbo rebuilds only what changed. */
export function setup(): void {
  execFileSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], { cwd: repoRoot(), stdio: "inherit" });
}
