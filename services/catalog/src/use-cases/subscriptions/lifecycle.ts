import { Subjects } from "@billing/bus";
import type { Subscription } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";
import { subscriptionEventOf } from "./subscription-plans";
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

/** A pending subscription is canceled; a downgrade it stood for is no longer announced on the active one. */
export async function cancelSubscription(deps: CatalogDeps, pending: Subscription, requestId?: string): Promise<Subscription> {
  const canceled = await cancelPending(deps, pending, requestId);
  if (canceled.previous_subscription_id) {
    await changeSubscription(deps, canceled.organization_id, canceled.previous_subscription_id, (s) =>
      s.next_subscription_id === canceled.id ? { ...s, next_subscription_id: null, next_plan_code: null, downgrade_plan_date: null } : null,
      (next, now) => subscriptionEventOf(deps, S.subscriptionUpdated, next, now, requestId),
    ).catch(() => undefined); // the previous one may be gone; the cancellation stands
  }
  return canceled;
}

/** An active subscription ends now (or at `at`); a downgrade scheduled on it is canceled first. */
export async function terminateSubscription(deps: CatalogDeps, active: Subscription, options: TerminationOptions = {}): Promise<Subscription> {
  if (active.next_subscription_id) {
    const next = await deps.subscriptions.findById(active.organization_id, active.next_subscription_id);
    if (next?.status === "pending") await cancelPending(deps, next, options.requestId);
  }
  return changeSubscription(
    deps, active.organization_id, active.id,
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

function cancelPending(deps: CatalogDeps, pending: Subscription, requestId?: string) {
  return changeSubscription(
    deps, pending.organization_id, pending.id,
    (s, now) => (s.status === "pending" ? { ...s, status: "canceled", canceled_at: now, activation_at: null } : null),
    (next, now) => subscriptionEventOf(deps, S.subscriptionCanceled, next, now, requestId),
  );
}

/**
 * A pending subscription whose time has come becomes active. A downgrade first ends the
 * subscription it replaces, at the end of that one's period.
 */
export async function activateSubscription(deps: CatalogDeps, pending: Subscription, requestId?: string): Promise<Subscription> {
  const startAt = pending.activation_at ?? pending.subscription_at;
  if (pending.previous_subscription_id) {
    const previous = await deps.subscriptions.findById(pending.organization_id, pending.previous_subscription_id);
    if (previous?.status === "active" && previous.next_subscription_id === pending.id) {
      await changeSubscription(
        deps, previous.organization_id, previous.id,
        (s) => (s.status === "active" ? { ...s, status: "terminated", terminated_at: new Date(startAt.getTime() - 1) } : null),
        (next, now) => subscriptionEventOf(deps, S.subscriptionTerminated, next, now, requestId),
      );
    }
  }
  return changeSubscription(
    deps, pending.organization_id, pending.id,
    (s) =>
      s.status !== "pending"
        ? null
        : { ...s, status: "active", started_at: startAt, initial_started_at: s.initial_started_at ?? startAt, activation_at: null },
    (next, now) => subscriptionEventOf(deps, S.subscriptionStarted, next, now, requestId),
  );
}
