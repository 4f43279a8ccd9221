import { AppError } from "@billing/errors";
import type { UsageAuditRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import type { CatalogCopies } from "../domain/read-copies";
import type { AdvanceStore } from "../persistence/advance-store";
import type { UsageCollections } from "../persistence/collections";
import { rederiveAdvanceFees } from "../use-cases/audit/rederive-advance-fees";
import { rederiveCharges } from "../use-cases/audit/rederive-charges";
import {
  rederiveAdvanceInput,
  rederivedAdvanceChargeMessage,
  rederiveInput,
  rederivedChargeMessage,
} from "./usage-audit-messages";

/**
 * billing.usage.v1.UsageAuditService: charge fees re-derived from the raw stored events, once
 * storage has applied every event acknowledged before the call (a late event is then seen).
 */
export function usageAuditHandlers(deps: {
  collections: UsageCollections;
  copies: CatalogCopies;
  /** the pay-in-advance charge versions' snapshots */
  store: Pick<AdvanceStore, "chargeVersionsByIds">;
  storedThroughNow(): Promise<void>;
}): Handlers<UsageAuditRpc> {
  return {
    RederiveCharges: async (req) => {
      if (!req.organization_id || !req.external_subscription_id)
        throw AppError.validation({ external_subscription_id: ["value_is_mandatory"] });
      const input = rederiveInput(req, (code) => deps.copies.metricByCode(req.organization_id, code));
      await deps.storedThroughNow();
      const charges = await rederiveCharges(deps, input);
      return { charges: charges.map(rederivedChargeMessage) };
    },
    RederiveAdvanceFees: async (req) => {
      if (!req.organization_id || !req.external_subscription_id)
        throw AppError.validation({ external_subscription_id: ["value_is_mandatory"] });
      const input = rederiveAdvanceInput(req);
      await deps.storedThroughNow();
      const charges = await rederiveAdvanceFees(deps, input);
      return { charges: charges.map(rederivedAdvanceChargeMessage) };
    },
  };
}
