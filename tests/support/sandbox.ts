import { expect } from "vitest";
import type { api } from "./api";

type Api = ReturnType<typeof api>;

/** Moves a sandbox organization's test clock to `to` and waits until every service has caught up. */
export async function advanceClock(call: Api, to: string, timeoutMs = 60_000): Promise<void> {
  const started = await call("POST", "/test_clock/advance", { test_clock: { frozen_time: to } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const clock = await call("GET", "/test_clock");
    if (clock.body?.test_clock?.status === "ready") {
      expect(clock.body.test_clock.frozen_time).toBe(new Date(to).toISOString());
      return;
    }
    if (Date.now() > deadline) throw new Error(`test clock still advancing after ${timeoutMs} ms: ${JSON.stringify(clock.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Unix seconds of an ISO instant, as the events API takes timestamps. */
export const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
