import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PoisonMessage } from "@billing/bus";
import type { CopyStores } from "../../persistence/read-copies/copy-stores";
import { MemoryCopies } from "../../persistence/read-copies/memory-copies";
import {
  chargeView,
  metricEvent,
  metricView,
  planEvent,
  planView,
  subscriptionEvent,
  subscriptionView,
} from "../../../test/read-copies-fixtures";
import { catalogEventApplier } from "./apply-catalog-event";

/** MongoDB's side, recorded: what the applier asked to store. */
function recordingStores() {
  const puts: string[] = [];
  const store = (what: string) => ({ put: async (id: string) => (puts.push(`${what}:${id}`), "stored" as const) });
  return {
    puts,
    stores: {
      metrics: store("metric"),
      plans: store("plan"),
      subscriptions: store("subscription"),
    } as unknown as CopyStores,
  };
}

describe("catalog events → read copies", () => {
  it("refuse a malformed event for good (PoisonMessage) and store nothing of it", async () => {
    const { puts, stores } = recordingStores();
    const apply = catalogEventApplier(stores, new MemoryCopies());
    const org = randomUUID();
    const metric = metricView({ code: "calls", updated_at: "2025-09-01T00:00:00.000Z" });
    const plan = planView({ code: "pro", updated_at: "2025-09-01T00:00:00.000Z", charges: [chargeView(metric)] });
    const malformed = [
      metricEvent("Created", org, { ...metric, code: undefined }),
      metricEvent("Updated", org, { ...metric, updated_at: "yesterday" }),
      planEvent("Updated", org, { ...plan, amount_cents: "ten" }),
      subscriptionEvent(
        "Started",
        org,
        subscriptionView(plan, { external_id: "s", status: "paused" }),
        plan,
        new Date(),
      ),
      subscriptionEvent("Started", org, subscriptionView(plan, { external_id: "s" }), { code: "pro" }, new Date()),
    ];
    for (const envelope of malformed)
      await expect(apply(envelope), envelope.type).rejects.toBeInstanceOf(PoisonMessage);
    expect(puts).toEqual([]);
  });

  it("keep the newest version: a metric by updated_at, a subscription by occurred_at with the later state winning a tie", async () => {
    const memory = new MemoryCopies();
    const apply = catalogEventApplier(recordingStores().stores, memory);
    const org = randomUUID();
    const v1 = metricView({ code: "calls", name: "v1", updated_at: "2025-09-01T00:00:00.000Z" });
    await apply(metricEvent("Updated", org, { ...v1, name: "v2", updated_at: "2025-09-02T00:00:00.000Z" }));
    await apply(metricEvent("Created", org, v1));
    expect(memory.metricByCode(org, "calls")?.name).toBe("v2");

    const plan = planView({ code: "pro", updated_at: "2025-09-01T00:00:00.000Z", charges: [chargeView(v1)] });
    const sub = subscriptionView(plan, { external_id: "sub_1" });
    const at = new Date("2025-09-10T00:00:00Z");
    await apply(
      subscriptionEvent("Terminated", org, { ...sub, status: "terminated", terminated_at: at.toISOString() }, plan, at),
    );
    await apply(subscriptionEvent("Updated", org, { ...sub, name: "same instant, earlier state" }, plan, at));
    expect(memory.subscriptions(org, "sub_1").map((c) => [c.subscription.status, c.subscription.name])).toEqual([
      ["terminated", null],
    ]);
    await apply(subscriptionEvent("Started", org, sub, plan, new Date("2025-09-11T00:00:00Z")));
    expect(memory.activeSubscription(org, "sub_1")?.plan).toMatchObject({ code: "pro", organization_id: org });
  });
});
