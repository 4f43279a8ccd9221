import type { CatalogRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { billableMetricView } from "../domain/views";
import { createBillableMetric } from "../use-cases/billable-metrics/create-billable-metric";
import { deleteBillableMetric } from "../use-cases/billable-metrics/delete-billable-metric";
import { getBillableMetric } from "../use-cases/billable-metrics/get-billable-metric";
import { listBillableMetrics } from "../use-cases/billable-metrics/list-billable-metrics";
import { updateBillableMetric } from "../use-cases/billable-metrics/update-billable-metric";
import type { CatalogDeps } from "../use-cases/deps";
import { billableMetricPatchOf } from "./billable-metric-messages";

/** billing.catalog.v1.BillableMetricService: proto in, use case, proto out. */
export function billableMetricHandlers(deps: CatalogDeps): Handlers<CatalogRpc["billableMetrics"]> {
  return {
    CreateBillableMetric: async (req, ctx) => ({
      billable_metric: billableMetricView(
        await createBillableMetric(
          deps,
          req.organization_id,
          billableMetricPatchOf(req.billable_metric),
          ctx.requestId,
        ),
      ),
    }),
    GetBillableMetric: async (req) => ({
      billable_metric: billableMetricView(await getBillableMetric(deps, req.organization_id, req.code)),
    }),
    UpdateBillableMetric: async (req, ctx) => ({
      billable_metric: billableMetricView(
        await updateBillableMetric(
          deps,
          req.organization_id,
          req.code,
          billableMetricPatchOf(req.billable_metric),
          ctx.requestId,
        ),
      ),
    }),
    DeleteBillableMetric: async (req, ctx) => ({
      billable_metric: billableMetricView(
        await deleteBillableMetric(deps, req.organization_id, req.code, ctx.requestId),
      ),
    }),
    ListBillableMetrics: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listBillableMetrics(deps, req.organization_id, page);
      return { billable_metrics: items.map(billableMetricView), meta: pageMeta(total, page) };
    },
  };
}
