import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, Streams, type Bus } from "@billing/bus";
import { silentLogger } from "@billing/logger";
import { connectMongo } from "@billing/mongo";
import { infraUrls, startOwnNats, uniqueName, waitFor, dropTestDatabase } from "@billing/testkit";
import type { Connection } from "mongoose";
import { durableName, startReadCopies, type ReadCopies } from "../src/events/catalog-copies/start-read-copies";
import {
  chargeView,
  metricEvent,
  metricView,
  planView,
  publish,
  subscriptionEvent,
  subscriptionView,
} from "./read-copies-fixtures";

// Two usage replicas: one database, one shared durable consumer, each with its own memory.
let ownNats: Awaited<ReturnType<typeof startOwnNats>>;
let bus: Bus;
let connection: Connection;
const dbName = uniqueName("copies_replicas");
const durablePrefix = uniqueName("copies_replicas");
const replicas: ReadCopies[] = [];
const connections: Connection[] = [];
/** A replica: its own connection (its own models) to the one database. */
const start = async () => {
  const own = await connectMongo({ url: infraUrls().mongoUrl, dbName });
  connections.push(own);
  return startReadCopies({ connection: own, bus, logger: silentLogger, durablePrefix, concurrency: 4 });
};

beforeAll(async () => {
  ownNats = await startOwnNats();
  bus = await connectBus({ url: ownNats?.url ?? infraUrls().natsUrl, name: "copies-replicas-test" });
  connection = await connectMongo({ url: infraUrls().mongoUrl, dbName });
  replicas.push(await start(), await start());
});

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await bus?.jsm.consumers.delete(Streams.catalog.name, durableName(durablePrefix)).catch(() => undefined);
  await dropTestDatabase(connection);
  await connection?.close();
  for (const c of connections) await c.close();
  await bus?.close();
  await ownNats?.stop();
});

describe("catalog read copies on two replicas sharing their durable consumer", () => {
  it("are in every replica's memory, whichever replica stored them; caughtUp waits for them", async () => {
    const org = randomUUID();
    const subs = Array.from({ length: 40 }, (_, i) => i);
    const metric = metricView({ code: "seats", updated_at: "2025-09-01T00:00:00.000Z" });
    const plan = planView({ code: "pro", updated_at: "2025-09-01T00:00:00.000Z", charges: [chargeView(metric)] });
    await publish(
      bus,
      metricEvent("Created", org, metric),
      ...subs.map((i) =>
        subscriptionEvent(
          "Started",
          org,
          subscriptionView(plan, { external_id: `sub_${i}` }),
          plan,
          new Date("2025-09-01T00:00:00Z"),
        ),
      ),
    );
    // right after publishing, each replica's caughtUp resolves only once its memory has all of them
    for (const r of replicas) {
      expect(await r.caughtUp(10_000)).toBe(true);
      expect(subs.filter((i) => !r.copies.activeSubscription(org, `sub_${i}`))).toEqual([]);
      expect(r.copies.metricByCode(org, "seats")?.svc_id).toBe(metric.svc_id);
    }
    // each event was stored once in MongoDB, by one replica or the other
    await waitFor(
      async () => (await connection.collection("catalog_subscription_copies").countDocuments({})) === subs.length,
      { what: "stored copies" },
    );

    // a replica started now loads what is stored and follows the rest
    const late = await start();
    replicas.push(late);
    const more = subscriptionView(plan, { external_id: "sub_late" });
    await publish(bus, subscriptionEvent("Started", org, more, plan, new Date("2025-09-02T00:00:00Z")));
    for (const r of replicas) {
      expect(await r.caughtUp(10_000)).toBe(true);
      expect(r.copies.activeSubscription(org, "sub_late")?.subscription.svc_id).toBe(more.svc_id);
      expect(r.copies.activeSubscription(org, "sub_0")).not.toBeNull();
    }
  });
});
