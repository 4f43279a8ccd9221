import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOutboxRelay, type Envelope } from "@billing/bus";
import { silentLogger } from "@billing/logger";
import { collectEvents, waitFor } from "@billing/testkit";
import { createBillableMetric } from "../src/use-cases/billable-metrics/create-billable-metric";
import { deleteBillableMetric } from "../src/use-cases/billable-metrics/delete-billable-metric";
import { getBillableMetric } from "../src/use-cases/billable-metrics/get-billable-metric";
import { listBillableMetrics } from "../src/use-cases/billable-metrics/list-billable-metrics";
import { updateBillableMetric } from "../src/use-cases/billable-metrics/update-billable-metric";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => (h = await startHarness("catalog_metrics")));
afterAll(() => h.close());

const collect = (subject: string, org: string) => collectEvents<Envelope>(h.bus.nc, subject, org);

describe("billable metrics against MongoDB and NATS", () => {
  it("creates a metric and publishes billable_metric.created with its whole view", async () => {
    const org = h.org();
    const events = collect("billing.catalog.billable_metric.created", org);
    const metric = await createBillableMetric(
      h.deps,
      org,
      {
        name: "Storage",
        code: "storage",
        aggregation_type: "sum_agg",
        field_name: "gb",
        recurring: true,
        filters: [{ key: "region", values: ["eu", "us", "eu"] }],
      },
      "req-1",
    );
    expect(metric).toMatchObject({
      weighted_interval: null,
      expression: null,
      filters: [{ key: "region", values: ["eu", "us"] }],
    });
    await waitFor(() => events.received.length === 1, { what: "created event" });
    events.stop();
    expect(events.received[0]).toMatchObject({
      type: "billing.catalog.billable_metric.created",
      correlation_id: "req-1",
      data: {
        billable_metric: {
          svc_id: metric.id,
          code: "storage",
          aggregation_type: "sum_agg",
          field_name: "gb",
          recurring: true,
        },
      },
    });
    const doc = await h.models.billableMetrics.findById(metric.id).lean<{ outbox: unknown[] }>();
    expect(doc?.outbox).toEqual([]);
  });

  it("requires field_name for every aggregation but count_agg, and checks the expression", async () => {
    const org = h.org();
    await expect(
      createBillableMetric(h.deps, org, { name: "M", code: "m", aggregation_type: "max_agg" }),
    ).rejects.toMatchObject({
      details: { field_name: ["value_is_mandatory"] },
    });
    await expect(
      createBillableMetric(h.deps, org, {
        name: "M",
        code: "m",
        aggregation_type: "count_agg",
        expression: "round(event.properties.a",
      }),
    ).rejects.toMatchObject({ details: { expression: ["invalid_expression"] } });
    expect(await h.models.billableMetrics.countDocuments({ organization_id: org })).toBe(0);
    const counted = await createBillableMetric(h.deps, org, {
      name: "Calls",
      code: "calls",
      aggregation_type: "count_agg",
      expression: "round(event.properties.a * 2, 1)",
    });
    expect(counted.field_name).toBeNull();
  });

  it("defaults a weighted sum to seconds, and it may be recurring", async () => {
    const org = h.org();
    const metric = await createBillableMetric(h.deps, org, {
      name: "W",
      code: "w",
      aggregation_type: "weighted_sum_agg",
      field_name: "v",
      recurring: true,
    });
    expect([metric.weighted_interval, metric.recurring]).toEqual(["seconds", true]);
  });

  it("updates only what is sent, validates the result, and publishes billable_metric.updated", async () => {
    const org = h.org();
    await createBillableMetric(h.deps, org, { name: "Calls", code: "calls", aggregation_type: "count_agg" });
    await expect(updateBillableMetric(h.deps, org, "calls", { aggregation_type: "sum_agg" })).rejects.toMatchObject({
      details: { field_name: ["value_is_mandatory"] },
    });
    const events = collect("billing.catalog.billable_metric.updated", org);
    h.clock.advance(1000);
    const updated = await updateBillableMetric(h.deps, org, "calls", {
      aggregation_type: "sum_agg",
      field_name: "n",
      rounding_function: "round",
      rounding_precision: 2,
    });
    expect(updated).toMatchObject({
      name: "Calls",
      aggregation_type: "sum_agg",
      field_name: "n",
      rounding_function: "round",
      rounding_precision: 2,
    });
    await waitFor(() => events.received.length === 1, { what: "updated event" });
    events.stop();
  });

  it("soft-deletes with billable_metric.deleted; the code is free again", async () => {
    const org = h.org();
    const events = collect("billing.catalog.billable_metric.deleted", org);
    const metric = await createBillableMetric(h.deps, org, { name: "Old", code: "old", aggregation_type: "count_agg" });
    await deleteBillableMetric(h.deps, org, "old");
    await waitFor(() => events.received.length === 1, { what: "deleted event" });
    events.stop();
    expect(events.received[0]?.data).toMatchObject({
      billable_metric: { svc_id: metric.id, deleted_at: expect.any(String) },
    });
    await expect(getBillableMetric(h.deps, org, "old")).rejects.toMatchObject({ code: "billable_metric_not_found" });
    await createBillableMetric(h.deps, org, { name: "New", code: "old", aggregation_type: "count_agg" });
    expect((await listBillableMetrics(h.deps, org, { page: 1, perPage: 10 })).items.map((m) => m.name)).toEqual([
      "New",
    ]);
  });

  it("publishes from the outbox an event that could not be published at once", async () => {
    const org = h.org();
    const events = collect("billing.catalog.billable_metric.created", org);
    const metric = await createBillableMetric({ ...h.deps, publishBillableMetricEvent: async () => undefined }, org, {
      name: "Late",
      code: "late",
      aggregation_type: "count_agg",
    });
    expect((await h.models.billableMetrics.findById(metric.id).lean<{ outbox: unknown[] }>())?.outbox).toHaveLength(1);
    const relay = startOutboxRelay(h.bus, [h.deps.billableMetrics.outbox()], silentLogger, 100);
    await waitFor(() => events.received.length === 1, { what: "relayed event" });
    relay.stop();
    events.stop();
  });
});
