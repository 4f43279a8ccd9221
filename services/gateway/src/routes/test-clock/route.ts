import { Router } from "express";
import type { CustomerRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentTestClock } from "@billing/views";
import { organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { replySender, rpcOptions } from "../../http/rpc-route";
import { parseFields, wrapped } from "../../http/validation";
import { advanceSchema } from "./validators";

/**
 * /api/v1/test_clock (beyond Lago; Stripe's test clocks are the model): a sandbox organization's
 * time, and moving it forward. The customer service owns the clock and drives every service.
 */
export function testClockRouter(customer: RpcClient<CustomerRpc>): Router {
  const router = Router();
  const send = replySender("test_clock", presentTestClock);
  router.get("/test_clock", async (req, res) => {
    send(res, await customer.call("GetTestClock", { organization_id: organizationId(req) }, rpcOptions(req)));
  });
  router.post("/test_clock/advance", async (req, res) => {
    const input = parseFields(advanceSchema, wrapped(req, "test_clock"), topLevelKey);
    send(
      res,
      await customer.call(
        "AdvanceTestClock",
        { organization_id: organizationId(req), frozen_time: input.frozen_time },
        rpcOptions(req),
      ),
    );
  });
  return router;
}
