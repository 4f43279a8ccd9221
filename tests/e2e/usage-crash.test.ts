import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mongoose from "mongoose";
import { Rpc, type UsageRpc } from "@billing/contracts";
import { RpcClient } from "@billing/grpc";
import { waitFor } from "@billing/testkit";
import { api } from "../support/api";
import { crashLoad } from "../support/crash";
import { startE2E, type E2E } from "../support/platform";

/**
 * A loader sends TOTAL events (4 000 in `npm test`, 20 000 in `npm run test:crash`; batches of 100, with retries) while the usage service is killed
 * with SIGKILL and restarted; afterwards every acknowledged event is stored exactly once.
 */
const TOTAL = crashLoad("USAGE_CRASH_EVENTS", 4_000, 20_000);
const BATCH = 100;
const CLIENTS = 4;
const KILLS = 3;

let e2e: E2E;
let usage: RpcClient<UsageRpc>;
let call: ReturnType<typeof api>;
let organizationId: string;

beforeAll(async () => {
  e2e = await startE2E("usage_crash");
  const org = await e2e.organization("Crash Corp");
  organizationId = org.organization_id;
  call = api(e2e.platform.baseUrl, org.api_key);
  const metric = { name: "Crash", code: "crash", aggregation_type: "sum_agg", field_name: "v" };
  expect((await call("POST", "/billable_metrics", { billable_metric: metric })).status).toBe(200);
  usage = new RpcClient(Rpc.usage, `127.0.0.1:${e2e.platform.env.usage.GRPC_PORT}`);
  await waitFor(() => aggregate().then(() => true), {
    what: "the usage service's copy of the metric",
    timeoutMs: 20_000,
  });
});

afterAll(async () => {
  usage?.close();
  await e2e?.stop();
});

const aggregate = (extra: Record<string, unknown> = {}) =>
  usage.call("Aggregate", {
    organization_id: organizationId,
    external_subscription_id: "sub_crash",
    code: "crash",
    from: "2026-05-01T00:00:00Z",
    to: "2026-06-01T00:00:00Z",
    ...extra,
  });

const value = (i: number) => (i % 7) + 1;
const event = (i: number) => ({
  transaction_id: `crash-${i}`,
  external_subscription_id: "sub_crash",
  code: "crash",
  timestamp: String(Date.parse("2026-05-01T00:00:00Z") / 1000 + (i % 600) * 3600 + (i % 97)),
  properties: { v: value(i), lane: `l${i % 3}` },
});

interface Outcome {
  acknowledged: number;
  retries: number;
  refusedAsKnown: number;
}

/** Sends each batch until it is acknowledged: a 200, or a 422 naming every event as already there (an earlier try was durable). */
async function sendBatch(first: number, outcome: Outcome): Promise<void> {
  const events = Array.from({ length: BATCH }, (_, k) => event(first + k));
  for (;;) {
    const res = await call("POST", "/events/batch", { events }).catch(() => ({ status: 0, body: undefined }));
    if (res.status === 200) break;
    const details =
      res.status === 422 ? (res.body?.error_details as Record<string, { transaction_id?: string[] }>) : undefined;
    if (
      details &&
      Object.keys(details).length === BATCH &&
      Object.values(details).every((d) => d.transaction_id?.[0] === "value_already_exist")
    ) {
      outcome.refusedAsKnown++;
      break;
    }
    if (res.status === 422) throw new Error(`unexpected refusal ${JSON.stringify(res.body)}`);
    outcome.retries++;
    await new Promise((r) => setTimeout(r, 100));
  }
  outcome.acknowledged += BATCH;
}

describe("usage service crash", () => {
  it("loses no acknowledged event and counts none twice across SIGKILLs", async () => {
    const outcome: Outcome = { acknowledged: 0, retries: 0, refusedAsKnown: 0 };
    let next = 0;
    const loader = Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < TOTAL) {
          const first = next;
          next += BATCH;
          await sendBatch(first, outcome);
        }
      }),
    );
    // kill at fixed points of the load (whatever its speed): 20 %, 45 % and 70 % acknowledged
    let kills = 0;
    let loading = true;
    void loader.finally(() => (loading = false));
    for (const share of [0.2, 0.45, 0.7].slice(0, KILLS)) {
      while (loading && outcome.acknowledged < share * TOTAL) await new Promise((r) => setTimeout(r, 10));
      if (!loading) break;
      await e2e.platform.kill("usage", "SIGKILL");
      kills++;
      await e2e.platform.start("usage");
    }
    await loader;
    expect(kills).toBe(KILLS);
    expect(outcome.acknowledged).toBe(TOTAL);

    const expectedUnits = String(Array.from({ length: TOTAL }, (_, i) => value(i)).reduce((a, b) => a + b, 0));
    await waitFor(async () => (await aggregate()).events_count === TOTAL, {
      what: "every acknowledged event stored",
      timeoutMs: 30_000,
    });
    expect(await aggregate()).toMatchObject({ units: expectedUnits, events_count: TOTAL });
    // the events themselves (pages), read through the exact path: each once
    const grouped = await aggregate({ grouped_by: ["lane"] });
    expect(grouped.groups.reduce((n, g) => n + Number(g.events_count), 0)).toBe(TOTAL);
    // one stored key per acknowledged transaction_id
    const db = await mongoose.createConnection(e2e.mongoUrl, { dbName: e2e.platform.env.usage.MONGO_DB }).asPromise();
    try {
      const keys = await db
        .collection("events")
        .find({}, { projection: { _id: 1 } })
        .toArray();
      const ids = new Set(keys.map((k) => JSON.parse(String(k._id))[2] as string));
      expect([keys.length, ids.size]).toEqual([TOTAL, TOTAL]);
      expect(Array.from({ length: TOTAL }, (_, i) => `crash-${i}`).every((tx) => ids.has(tx))).toBe(true);
    } finally {
      await db.close();
    }
    console.log(
      `usage crash test: ${kills} kills, ${outcome.retries} retries, ${outcome.refusedAsKnown} batches refused as already stored`,
    );
  }, 60_000);
});
