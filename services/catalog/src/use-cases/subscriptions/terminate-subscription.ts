import { Subjects } from "@billing/bus";
import type { Subscription } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";
import { subscriptionEventOf } from "./subscription-plan-refs";
import { cancelPending } from "./cancel-subscription";
import { changeSubscription } from "./write-subscription";

const S = Subjects.catalog;

export interface TerminationOptions {
  at?: Date;
  /** An upgrade: the subscription that replaces this one (recorded first, so a crash before it is stored can be resumed). */
  successor?: { id: string; plan_code: string };
  on_termination_credit_note?: string | null;
  on_termination_invoice?: string | null;
  requestId?: string;
}

/** An active subscription ends now (or at `at`); a downgrade scheduled on it is canceled first. */
export async function terminateSubscription(
  deps: CatalogDeps,
  active: Subscription,
  options: TerminationOptions = {},
): Promise<Subscription> {
  if (active.next_subscription_id) {
    const next = await deps.subscriptions.findById(active.organization_id, active.next_subscription_id);
    if (next?.status === "pending") await cancelPending(deps, next, options.requestId);
  }
  return changeSubscription(
    deps,
    active.organization_id,
    active.id,
    (s, now) =>
      s.status !== "active"
        ? null
        : {
            ...s,
            status: "terminated",
            terminated_at: options.at ?? now,
            next_subscription_id: options.successor?.id ?? null,
            next_plan_code: options.successor?.plan_code ?? null,
            downgrade_plan_date: null,
            on_termination_credit_note: options.on_termination_credit_note ?? s.on_termination_credit_note,
            on_termination_invoice: options.on_termination_invoice ?? s.on_termination_invoice,
          },
    (next, now) => subscriptionEventOf(deps, S.subscriptionTerminated, next, now, options.requestId),
  );
}
