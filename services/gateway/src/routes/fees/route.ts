import { Router } from "express";
import type { FeeRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentListedFee, presentMeta } from "@billing/views";
import { organizationId } from "../../http/context";
import { idKey, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, wrapped } from "../../http/validation";
import { feeListQuery, feeUpdate } from "./validators";

/**
 * /api/v1/fees: the pay-in-advance fees usage events create (and, by id, any fee of an invoice).
 * Validation and shape only; the invoicing service answers typed fees, presented as Lago's FeeObject.
 */
export function feesRouter(fees: RpcClient<FeeRpc>): Router {
  const router = Router();
  const sendFee = replySender("fee", presentListedFee);

  router.get("/fees", async (req, res) => {
    const q = parseFields(feeListQuery, req.query);
    const reply = await fees.call(
      "ListFees",
      { organization_id: organizationId(req), page: pageQuery(req), ...q },
      rpcOptions(req),
    );
    res.json({ fees: reply.fees.map(presentListedFee), meta: presentMeta(reply.meta) });
  });
  router.get("/fees/:id", async (req, res) => sendFee(res, await fees.call("GetFee", idKey(req), rpcOptions(req))));
  router.put("/fees/:id", async (req, res) => {
    const update = parseFields(feeUpdate, wrapped(req, "fee"));
    sendFee(
      res,
      await fees.call("UpdateFee", { ...idKey(req), payment_status: update.payment_status }, rpcOptions(req)),
    );
  });
  router.delete("/fees/:id", async (req, res) =>
    sendFee(res, await fees.call("DeleteFee", idKey(req), rpcOptions(req))),
  );
  return router;
}
