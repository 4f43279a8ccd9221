import type { UsageRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { estimateFees, type EstimateDeps } from "../use-cases/estimate/estimate-fees";
import { estimateReply, estimateRequest } from "./estimate-messages";

/** EstimateFees: proto ⇄ use case. */
export function estimateHandlers(deps: EstimateDeps): Pick<Handlers<UsageRpc>, "EstimateFees"> {
  return {
    EstimateFees: async (request) => estimateReply(await estimateFees(deps, estimateRequest(request))),
  };
}
