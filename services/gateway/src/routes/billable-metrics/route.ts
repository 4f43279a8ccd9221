import { Router, type Request } from "express";
import type { RpcClient } from "@billing/grpc";
import { ctx, organizationId } from "../../http/context";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { presentMeta } from "../../http/presenting";
import { topLevelKey } from "../../http/fields";
import { presentBillableMetric } from "./presenter";
import { toBillableMetricInputMessage } from "./to-message";
import { billableMetricCreateSchema, billableMetricUpdateSchema } from "./validators";

type MetricReply = { billable_metric: Record<string, unknown> };

/** /api/v1/billable_metrics: validation and shape only; the catalog service decides. */
export function billableMetricsRouter(metrics: RpcClient): Router {
  const router = Router();
  const opts = (req: Request) => ({ requestId: ctx(req).requestId });
  const key = (req: Request) => ({ organization_id: organizationId(req), code: req.params.code });
  const send = (res: { json(body: unknown): void }, reply: MetricReply) => res.json({ billable_metric: presentBillableMetric(reply.billable_metric) });

  router.post("/billable_metrics", async (req, res) => {
    const input = parseFields(billableMetricCreateSchema, wrapped(req, "billable_metric"), topLevelKey);
    const message = { organization_id: organizationId(req), billable_metric: toBillableMetricInputMessage(input) };
    send(res, await metrics.call<MetricReply>("CreateBillableMetric", message, opts(req)));
  });

  router.get("/billable_metrics", async (req, res) => {
    const reply = await metrics.call<{ billable_metrics: Array<Record<string, unknown>>; meta: Record<string, unknown> }>(
      "ListBillableMetrics",
      { organization_id: organizationId(req), page: pageQuery(req) },
      opts(req),
    );
    res.json({ billable_metrics: reply.billable_metrics.map(presentBillableMetric), meta: presentMeta(reply.meta) });
  });

  router.get("/billable_metrics/:code", async (req, res) => {
    send(res, await metrics.call<MetricReply>("GetBillableMetric", key(req), opts(req)));
  });

  router.put("/billable_metrics/:code", async (req, res) => {
    const input = parseFields(billableMetricUpdateSchema, wrapped(req, "billable_metric"), topLevelKey);
    send(res, await metrics.call<MetricReply>("UpdateBillableMetric", { ...key(req), billable_metric: toBillableMetricInputMessage(input) }, opts(req)));
  });

  router.delete("/billable_metrics/:code", async (req, res) => {
    send(res, await metrics.call<MetricReply>("DeleteBillableMetric", key(req), opts(req)));
  });

  return router;
}
