import type { RpcHandler } from "@billing/grpc";
import { pageMeta } from "@billing/mongo";
import type { Patch } from "../domain/patch";
import type { BillableMetric, MetricFilter } from "../domain/types";
import { billableMetricView } from "../domain/views";
import { createBillableMetric } from "../use-cases/billable-metrics/create-billable-metric";
import { deleteBillableMetric } from "../use-cases/billable-metrics/delete-billable-metric";
import { getBillableMetric } from "../use-cases/billable-metrics/get-billable-metric";
import { listBillableMetrics } from "../use-cases/billable-metrics/list-billable-metrics";
import { updateBillableMetric } from "../use-cases/billable-metrics/update-billable-metric";
import type { CatalogDeps } from "../use-cases/deps";
import { pageOf, patchOf, type PageMessage } from "./messages";

type Key = { organization_id: string; code: string };
type Input = Record<string, unknown> & { filters_set?: boolean; filters?: MetricFilter[] };

function metricPatch(input: Input | null): Patch<BillableMetric> {
  const patch = patchOf(input, [
    "name", "code", "description", "aggregation_type", "field_name", "recurring", "rounding_function",
    "rounding_precision", "weighted_interval", "expression",
  ]) as Patch<BillableMetric>;
  if (input?.filters_set) patch.filters = (input.filters ?? []).map((f) => ({ key: f.key, values: f.values ?? [] }));
  return patch;
}

/** billing.catalog.v1.BillableMetricService: proto in, use case, proto out. */
export function billableMetricHandlers(deps: CatalogDeps): Record<string, RpcHandler> {
  return {
    CreateBillableMetric: async (req: { organization_id: string; billable_metric: Input | null }, ctx) => ({
      billable_metric: billableMetricView(await createBillableMetric(deps, req.organization_id, metricPatch(req.billable_metric), ctx.requestId)),
    }),
    GetBillableMetric: async (req: Key) => ({
      billable_metric: billableMetricView(await getBillableMetric(deps, req.organization_id, req.code)),
    }),
    UpdateBillableMetric: async (req: Key & { billable_metric: Input | null }, ctx) => ({
      billable_metric: billableMetricView(
        await updateBillableMetric(deps, req.organization_id, req.code, metricPatch(req.billable_metric), ctx.requestId),
      ),
    }),
    DeleteBillableMetric: async (req: Key, ctx) => ({
      billable_metric: billableMetricView(await deleteBillableMetric(deps, req.organization_id, req.code, ctx.requestId)),
    }),
    ListBillableMetrics: async (req: { organization_id: string } & PageMessage) => {
      const page = pageOf(req);
      const { items, total } = await listBillableMetrics(deps, req.organization_id, page);
      return { billable_metrics: items.map(billableMetricView), meta: pageMeta(total, page) };
    },
  };
}
