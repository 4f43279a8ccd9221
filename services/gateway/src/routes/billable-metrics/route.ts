import { Router, type Request } from "express";
import type { CatalogRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { codeKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { topLevelKey } from "../../http/fields";
import { presentBillableMetric } from "./presenter";
import { toBillableMetricInputMessage } from "./to-message";
import { billableMetricCreateSchema, billableMetricUpdateSchema } from "./validators";


/** /api/v1/billable_metrics: validation and shape only; the catalog service decides. */
export function billableMetricsRouter(metrics: RpcClient<CatalogRpc["billableMetrics"]>): Router {
  const router = Router();
  const send = replySender("billable_metric", presentBillableMetric);

  router.post("/billable_metrics", async (req, res) => {
    const input = parseFields(billableMetricCreateSchema, wrapped(req, "billable_metric"), topLevelKey);
    const message = { organization_id: organizationId(req), billable_metric: toBillableMetricInputMessage(input) };
    send(res, await metrics.call("CreateBillableMetric", message, rpcOptions(req)));
  });

  router.get("/billable_metrics", async (req, res) => {
    const reply = await metrics.call(
      "ListBillableMetrics",
      { organization_id: organizationId(req), page: pageQuery(req) },
      rpcOptions(req),
    );
    res.json({ billable_metrics: reply.billable_metrics.map(presentBillableMetric), meta: presentMeta(reply.meta) });
  });

  router.get("/billable_metrics/:code", async (req, res) => {
    send(res, await metrics.call("GetBillableMetric", codeKey(req), rpcOptions(req)));
  });

  router.put("/billable_metrics/:code", async (req, res) => {
    const input = parseFields(billableMetricUpdateSchema, wrapped(req, "billable_metric"), topLevelKey);
    send(res, await metrics.call("UpdateBillableMetric", { ...codeKey(req), billable_metric: toBillableMetricInputMessage(input) }, rpcOptions(req)));
  });

  router.delete("/billable_metrics/:code", async (req, res) => {
    send(res, await metrics.call("DeleteBillableMetric", codeKey(req), rpcOptions(req)));
  });

  return router;
}
