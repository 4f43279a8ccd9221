import { readFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { createOrganization, type Platform } from "@billing/testkit";
import { launchTestPlatform, type TestPlatform } from "../support/test-platform";

let shared: TestPlatform | undefined;

/**
 * Starts the platform the `e2e` project's files share (seven processes, a NATS server of its own,
 * databases named after a fresh prefix) and hands its addresses to every file. One launch for the
 * whole project instead of one per file: each launch costs the seven processes' start-up and a
 * warm-up of their consumers.
 */
export async function setup(project: TestProject): Promise<void> {
  // E2E_SHARED_PLATFORM=0: every file starts a platform of its own (as before; to measure what sharing saves)
  if (process.env.E2E_SHARED_PLATFORM === "0") return;
  shared = await launchTestPlatform("e2e_shared");
  const { platform, mongoUrl, natsUrl, dbPrefix } = shared;
  await warmUp(platform.baseUrl, mongoUrl, dbPrefix);
  project.provide("sharedPlatform", {
    baseUrl: platform.baseUrl,
    gatewayPort: platform.gatewayPort,
    env: platform.env,
    mongoUrl,
    natsUrl,
    dbPrefix,
  });
}

export async function teardown(): Promise<void> {
  if (!shared) return;
  console.log(`shared e2e platform, CPU seconds per process: ${cpuSeconds(shared.platform)}`);
  await shared.stop();
}

/**
 * One test-clock step of a probe organization, so that every service's consumers are attached and
 * caught up before the first file's first story (a clock cannot step before they are).
 */
async function warmUp(baseUrl: string, mongoUrl: string, dbPrefix: string): Promise<void> {
  const probe = createOrganization({
    name: "shared platform warm-up",
    mongoUrl,
    dbName: `${dbPrefix}_customer`,
    frozenTime: "2024-01-01T00:00:00Z",
  });
  const headers = { authorization: `Bearer ${probe.api_key}`, "content-type": "application/json" };
  const advanced = await fetch(`${baseUrl}/api/v1/test_clock/advance`, {
    method: "POST",
    headers,
    body: JSON.stringify({ test_clock: { frozen_time: "2024-01-01T00:01:00Z" } }),
  });
  if (advanced.status !== 200)
    throw new Error(`warm-up: the probe's clock did not step (${advanced.status} ${await advanced.text()})`);
  const deadline = Date.now() + 170_000;
  for (;;) {
    const clock = (await (await fetch(`${baseUrl}/api/v1/test_clock`, { headers })).json()) as {
      test_clock: { status: string };
    };
    if (clock.test_clock.status === "ready") return;
    if (Date.now() > deadline) throw new Error("warm-up: the probe's clock stayed busy for 170 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each service process's CPU time so far (user + system, from /proc; Linux only), for the run's log. */
function cpuSeconds(platform: Platform): string {
  const ticksPerSecond = 100; // USER_HZ on Linux
  const parts: string[] = [];
  let total = 0;
  for (const [name, child] of platform.processes) {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      const seconds = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
      total += seconds;
      parts.push(`${name} ${seconds.toFixed(1)}`);
    } catch {
      parts.push(`${name} ?`);
    }
  }
  return `${parts.join(", ")}; total ${total.toFixed(1)}`;
}
