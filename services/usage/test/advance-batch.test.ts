import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Connection } from "mongoose";
import { connectMongo } from "@billing/mongo";
import { parseAdvanceFees } from "@billing/contracts";
import { infraUrls, uniqueName, dropTestDatabase } from "@billing/testkit";
import { AdvanceStore } from "../src/persistence/advance-store";
import { MemoryCopies } from "../src/persistence/read-copies/memory-copies";
import type { MetricCopy, PlanCopy, SubscriptionState } from "../src/domain/read-copies";
import { priceAdvanceBatch, type AdvanceEnvelopeInput } from "../src/use-cases/advance/price-advance-events";
import { sweepAdvanceAnswers } from "../src/schedule/advance-answers-sweep";
import { chargeView, metricView, planView, subscriptionView } from "./read-copies-fixtures";

// PriceAdvanceBatch (billing-rules §1.12) against the real MongoDB test server: consecutive
// envelopes priced in one call give the fees they give one at a time; an envelope asked again,
// alone or in another batch, gets the same fees and moves no bucket twice; a crash between the
// answers and the bucket moves, and two callers racing on the same buckets, still price every
// event once (the high-water mark charge: what each event raises the period's maximum by).
const ORG = randomUUID();
const PER_ENVELOPE = 20;

let connection: Connection;
const copies = new MemoryCopies();
const gb = metricView({
  code: "gb",
  updated_at: "2025-09-01T00:00:00.000Z",
  aggregation_type: "sum_agg",
  field_name: "gb",
});
const plan = planView({
  code: "advance",
  updated_at: "2025-09-01T00:00:00.000Z",
  charges: [chargeView(gb, { properties: { amount: "1" } })],
});
const subscriptions = ["sub_a", "sub_b", "sub_c"].map((external_id) => subscriptionView(plan, { external_id }));

/** Envelope i: +5 and −3 gb alternately, spread over the three subscriptions (September 2025). */
function envelope(i: number, tag: string): AdvanceEnvelopeInput {
  return {
    organizationId: ORG,
    envelopeId: `${tag}_env_${i}`,
    events: Array.from({ length: PER_ENVELOPE }, (_, j) => {
      const n = i * PER_ENVELOPE + j;
      return {
        svc_id: randomUUID(),
        transaction_id: `${tag}_tx_${n}`,
        external_subscription_id: subscriptions[n % 3]!.external_id,
        code: "gb",
        timestamp: new Date(Date.UTC(2025, 8, 2) + n * 60_000).toISOString(),
        properties: { gb: n % 2 === 0 ? 5 : -3 },
        created_at: "",
      };
    }),
  };
}

/** A store on a database of its own (bucket ids name the organization and subscription, not the test). */
const used: string[] = [];
function freshStore() {
  const name = uniqueName("advance_batch");
  used.push(name);
  return new AdvanceStore(connection.useDb(name, { useCache: false }));
}

/** The fees of each envelope (their text checked to read back the same). */
async function price(...args: Parameters<typeof priceAdvanceBatch>) {
  const priced = await priceAdvanceBatch(...args);
  for (const p of priced) expect(parseAdvanceFees(p.text)).toEqual(p.fees);
  return priced.map((p) => p.fees);
}

/** What one envelope at a time gives, on a fresh store: the reference. */
async function oneByOne(envelopes: AdvanceEnvelopeInput[]) {
  const store = freshStore();
  const out = [];
  for (const e of envelopes) out.push((await price({ copies, store, cache: new Map() }, [e]))[0]!);
  return out;
}

const amounts = (fees: Array<Array<{ event_transaction_id: string; amount_cents: number }>>) =>
  fees.map((f) => f.map((x) => [x.event_transaction_id, x.amount_cents]));

beforeAll(async () => {
  connection = await connectMongo({ url: infraUrls().mongoUrl, dbName: uniqueName("advance_batch") });
  copies.putMetric({ value: { ...gb, organization_id: ORG } as unknown as MetricCopy, version: 1 });
  copies.putPlan({ value: { ...plan, organization_id: ORG } as unknown as PlanCopy, version: 1 });
  for (const s of subscriptions)
    copies.putSubscription({ value: { ...s, organization_id: ORG } as unknown as SubscriptionState, version: 1 });
}, 60_000);

afterAll(async () => {
  for (const name of used) await dropTestDatabase(connection.useDb(name));
  await dropTestDatabase(connection);
  await connection?.close();
});

describe("PriceAdvanceBatch", () => {
  it("prices a batch as one envelope at a time would, and answers a re-batched envelope the same fees", async () => {
    const reference = await oneByOne(Array.from({ length: 6 }, (_, i) => envelope(i, "ref")));
    const store = freshStore();
    await store.ensureIndexes();
    const envelopes = Array.from({ length: 6 }, (_, i) => envelope(i, "batch"));
    const strip = (f: ReturnType<typeof amounts>) => f.map((e) => e.map(([, a]) => a));

    const first = await price({ copies, store, cache: new Map() }, envelopes.slice(0, 3));
    // envelopes 1 and 2 again (a redelivery in another batch, another process: no cache), then 3–5
    const second = await price({ copies, store, cache: new Map() }, envelopes.slice(1));
    expect(second.slice(0, 2)).toEqual(first.slice(1));
    expect(strip(amounts([...first, ...second.slice(2)]))).toEqual(strip(amounts(reference)));
    // each event paid once: the same total as one envelope at a time
    const total = [...first, ...second.slice(2)].flat().reduce((s, f) => s + f.amount_cents, 0);
    expect(total).toBe(reference.flat().reduce((s, f) => s + f.amount_cents, 0));
    expect(total).toBeGreaterThan(0);
  });

  it("completes a batch cut short between its answers and its bucket moves, and prices again a batch priced from states another replica moved meanwhile", async () => {
    const reference = await oneByOne(Array.from({ length: 8 }, (_, i) => envelope(i, "ref2")));
    const store = freshStore();
    const envelopes = Array.from({ length: 8 }, (_, i) => envelope(i, "crash"));
    // a crash after the answers were stored, before any bucket moved
    const crashing = Object.create(store) as AdvanceStore;
    crashing.applyBatch = async () => {
      throw new Error("killed");
    };
    await expect(price({ copies, store: crashing, cache: new Map() }, envelopes.slice(0, 4))).rejects.toThrow("killed");
    const again = await price({ copies, store, cache: new Map() }, envelopes.slice(0, 4));
    // this replica prices envelope 4 (its cache holds the states it left), another replica envelope 5;
    // this one, its cache now stale, prices 6 and 7: its bucket moves are refused (revision), it puts
    // back what it moved, forgets its answers and prices them again from the stored states
    const stale = new Map();
    const a = [
      ...(await price({ copies, store, cache: stale }, envelopes.slice(4, 5))),
      ...(await price({ copies, store, cache: new Map() }, envelopes.slice(5, 6))),
    ];
    const retried = { count: 0 };
    const counting = Object.create(store) as AdvanceStore;
    counting.rollBack = async (moved) => {
      retried.count++;
      return store.rollBack(moved);
    };
    const b = await price({ copies, store: counting, cache: stale }, envelopes.slice(6, 8));
    expect(retried.count).toBe(1);
    const all = [...again, ...a, ...b].flat();
    expect(new Set(all.map((f) => f.event_transaction_id)).size).toBe(8 * PER_ENVELOPE);
    // the same fees as one envelope at a time
    expect(all.map((f) => f.amount_cents)).toEqual(reference.flat().map((f) => f.amount_cents));
    expect(all.reduce((s, f) => s + f.amount_cents, 0)).toBe(reference.flat().reduce((s, f) => s + f.amount_cents, 0));
    // asked once more, everything answers the same
    const replay = await price({ copies, store, cache: new Map() }, envelopes);
    expect(replay.flat()).toEqual(all);
  });

  it("waits for the read copies when an event's subscription is not in them yet (created just before its first events), then prices it", async () => {
    const late = subscriptionView(plan, { external_id: "sub_late" });
    const lateEvent = (n: number) => ({
      svc_id: randomUUID(),
      transaction_id: `late_tx_${n}`,
      external_subscription_id: "sub_late",
      code: "gb",
      timestamp: new Date(Date.UTC(2025, 8, 3) + n * 60_000).toISOString(),
      properties: { gb: 2 },
      created_at: "",
    });
    let asked = 0;
    // the copy arrives while the batch waits for the copies to catch up, as the catalog's event would
    const copiesCaughtUp = async () => {
      asked++;
      copies.putSubscription({ value: { ...late, organization_id: ORG } as unknown as SubscriptionState, version: 1 });
      return true;
    };
    const [fees] = await price({ copies, store: freshStore(), cache: new Map(), copiesCaughtUp }, [
      { organizationId: ORG, envelopeId: "late_env", events: [lateEvent(0), lateEvent(1)] },
    ]);
    expect({ asked, fees: fees!.map((f) => [f.event_transaction_id, f.amount_cents]) }).toEqual({
      asked: 1,
      fees: [
        ["late_tx_0", 200],
        ["late_tx_1", 200],
      ],
    });
    // known subscriptions never wait
    await price({ copies, store: freshStore(), cache: new Map(), copiesCaughtUp }, [envelope(0, "known")]);
    expect(asked).toBe(1);
  });

  it("deletes the answers kept longer than the usage stream keeps their envelopes, and only those", async () => {
    const store = freshStore();
    await store.ensureIndexes();
    await price({ copies, store, cache: new Map() }, [envelope(0, "sweep_old"), envelope(1, "sweep_new")]);
    // the first answer as if stored nine days ago
    const db = (store as unknown as { answers: { updateOne(f: object, u: object): Promise<unknown> } }).answers;
    await db.updateOne({ _id: `${ORG}|sweep_old_env_0` }, { $set: { at: new Date(Date.now() - 9 * 24 * 3600_000) } });
    expect(await sweepAdvanceAnswers(store, new Date())).toBe(1);
    expect((await store.answersByIds([`${ORG}|sweep_old_env_0`, `${ORG}|sweep_new_env_1`])).map((a) => a._id)).toEqual([
      `${ORG}|sweep_new_env_1`,
    ]);
    expect(await sweepAdvanceAnswers(store, new Date())).toBe(0);
  });

  it("stores each charge version's snapshot once, before any answer names it, and a new version when the charge changes", async () => {
    const store = freshStore();
    const versions = (store as unknown as { versions: { insertMany(docs: unknown[], o: object): Promise<unknown> } })
      .versions;
    const writes: number[] = [];
    const insertMany = versions.insertMany.bind(versions);
    versions.insertMany = (docs, o) => {
      writes.push(docs.length);
      return insertMany(docs, o);
    };
    // a crash before the answers are stored: the version they would have named is stored already
    const crashing = Object.create(store) as AdvanceStore;
    crashing.insertAnswers = async () => {
      throw new Error("killed");
    };
    await expect(price({ copies, store: crashing, cache: new Map() }, [envelope(0, "version")])).rejects.toThrow(
      "killed",
    );
    expect(writes).toEqual([1]);
    const [first] = await price({ copies, store, cache: new Map() }, [envelope(0, "version")]);
    const version = first![0]!.charge_version!;
    expect(new Set(first!.map((f) => f.charge_version))).toEqual(new Set([version]));
    expect((await store.chargeVersionsByIds([version])).map((d) => d._id)).toEqual([version]);
    // known to this process: no write however many batches name it
    await price({ copies, store, cache: new Map() }, [envelope(1, "version"), envelope(2, "version")]);
    expect(writes).toEqual([1]);
    // the charge's price changed on the plan: a new version, stored once; the first one is kept
    copies.putPlan({
      value: {
        ...plan,
        charges: [chargeView(gb, { properties: { amount: "2" } })],
        organization_id: ORG,
      } as unknown as PlanCopy,
      version: 2,
    });
    try {
      const [changed] = await price({ copies, store, cache: new Map() }, [envelope(3, "version")]);
      const next = changed![0]!.charge_version!;
      expect(next).not.toBe(version);
      expect(writes).toEqual([1, 1]);
      expect((await store.chargeVersionsByIds([version, next])).map((d) => d._id).sort()).toEqual(
        [version, next].sort(),
      );
    } finally {
      copies.putPlan({ value: { ...plan, organization_id: ORG } as unknown as PlanCopy, version: 3 });
    }
  });
});
