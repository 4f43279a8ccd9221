import { Router } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentBillableMetric } from "@billing/views";
import { codeResourceRoutes } from "../../http/code-resource-routes";
import { topLevelKey } from "../../http/fields";
import { toBillableMetricInputMessage } from "./to-message";
import { billableMetricCreateSchema, billableMetricUpdateSchema } from "./validators";

/** /api/v1/billable_metrics: validation and shape only; the catalog service decides. */
export function billableMetricsRouter(metrics: RpcClient<CatalogRpc["billableMetrics"]>): Router {
  return codeResourceRoutes(Router(), metrics, {
    root: "billable_metric",
    plural: "billable_metrics",
    rpc: {
      create: "CreateBillableMetric",
      list: "ListBillableMetrics",
      get: "GetBillableMetric",
      update: "UpdateBillableMetric",
      delete: "DeleteBillableMetric",
    },
    schemas: { create: billableMetricCreateSchema, update: billableMetricUpdateSchema, errorKey: topLevelKey },
    toMessage: toBillableMetricInputMessage,
    present: presentBillableMetric,
  });
}
