import type { FeeRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import { deleteFee, updateFeePaymentStatus } from "../use-cases/fees/change-fee";
import type { FeeDeps } from "../use-cases/fees/deps";
import { getFee, listFees } from "../use-cases/fees/read-fees";
import { feeFilterOf, feeReadMessage } from "./fee-messages";

/** billing.invoicing.v1.FeeService: proto in, use case, proto out (always within the caller's organization). */
export function feeHandlers(deps: FeeDeps): Handlers<FeeRpc> {
  return {
    ListFees: async (req) => {
      const page = pageRequestOf(req);
      const { none, ...filter } = feeFilterOf(req);
      const { items, total } = none ? { items: [], total: 0 } : await listFees(deps, req.organization_id, filter, page);
      return { meta: pageMeta(total, page), fees: items.map(feeReadMessage) };
    },
    GetFee: async (req) => ({ fee: feeReadMessage(await getFee(deps, req.organization_id, req.id)) }),
    UpdateFee: async (req) => ({
      fee: feeReadMessage(await updateFeePaymentStatus(deps, req.organization_id, req.id, req.payment_status)),
    }),
    DeleteFee: async (req) => ({ fee: feeReadMessage(await deleteFee(deps, req.organization_id, req.id)) }),
  };
}
