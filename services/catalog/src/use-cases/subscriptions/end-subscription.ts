import { AppError } from "@billing/errors";
import { checkTermination } from "../../domain/subscription-rules";
import type { CatalogDeps } from "../deps";
import { refuseIfInvalid } from "../catalog-record-writes";
import { cancelSubscription } from "./cancel-subscription";
import { terminateSubscription } from "./terminate-subscription";
import { presentSubscription, type SubscriptionWithPlan } from "./subscription-plan-refs";

export interface EndSubscriptionInput {
  /** "pending" cancels the pending subscription; otherwise the active one is terminated. */
  status?: string | null;
  on_termination_credit_note?: string | null;
  on_termination_invoice?: string | null;
}

/** DELETE /subscriptions/{external_id}: terminate the active subscription, or cancel the pending one. */
export async function endSubscription(
  deps: CatalogDeps,
  organizationId: string,
  externalId: string,
  input: EndSubscriptionInput,
  requestId?: string,
): Promise<SubscriptionWithPlan> {
  refuseIfInvalid(checkTermination(input));
  const pending = input.status === "pending";
  const current = await deps.subscriptions.findByExternalId(organizationId, externalId, [
    pending ? "pending" : "active",
  ]);
  if (!current) throw AppError.notFound("subscription");
  const ended = pending
    ? await cancelSubscription(deps, current, requestId)
    : await terminateSubscription(deps, current, { ...input, requestId });
  return presentSubscription(deps, ended);
}
