import { ok, type Api, type Json } from "./scenario";

/**
 * A crash test's load. `npm test` runs the small one: enough records that every kill lands in the
 * middle of the work, so the property (nothing lost, nothing twice) is shown at the smallest size
 * that shows it. `npm run test:crash` (CRASH_FULL=1) runs the full one; docs/testing.md lists both
 * sizes. `variable` (e.g. INVOICING_CRASH_SUBSCRIPTIONS) overrides both.
 */
export function crashLoad(variable: string, small: number, full: number): number {
  const explicit = process.env[variable];
  if (explicit) return Number(explicit);
  return process.env.CRASH_FULL === "1" ? full : small;
}

/**
 * How many setup requests a crash test sends at once. Setting up is not what is tested: more at once
 * only queues them behind each other on two cores, past the gateway's 5 s deadline (504).
 */
export const SETUP_CONCURRENCY = 8;

/** Runs `work(0)` … `work(count − 1)`, `size` at a time (the crash tests' loads). */
export async function inBatches(count: number, size: number, work: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i += size)
    await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, k) => work(i + k)));
}

/** Every item of a list endpoint (`key` in its body), page after page of 1000. */
export async function allOf(call: Api, path: string, key: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; ; page++) {
    const res = await ok(call("GET", `${path}${path.includes("?") ? "&" : "?"}per_page=1000&page=${page}`));
    items.push(...res[key]);
    if (!res.meta.next_page) return items;
  }
}
