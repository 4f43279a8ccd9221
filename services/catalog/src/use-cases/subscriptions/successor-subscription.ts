import { randomUUID } from "node:crypto";
import { chooseSections, NO_SECTIONS, type SectionChoice } from "@billing/contracts";
import type { Subscription } from "../../domain/subscription";
import type { Plan } from "../../domain/types";

/** Another plan asked for a current subscription (an upgrade, a downgrade, or the retry of an interrupted upgrade). */
export interface PlanSwitch {
  current: Subscription;
  /** The public plan asked for, and the plan billed (its private copy when overridden). */
  plan: Plan;
  billed: Plan;
  name?: string | null;
  endingAt?: Date | null;
  /** the request's invoice custom sections choice, for the new subscription (Lago does not carry the old one's) */
  sections?: SectionChoice;
  requestId?: string;
}

/** The subscription that follows `current` on the new plan: same external id, customer, anniversary and trial start. */
export function successorSubscription(
  sw: PlanSwitch,
  now: Date,
): Omit<Subscription, "status" | "started_at" | "activation_at"> {
  const { current } = sw;
  const id = randomUUID();
  return {
    ...current,
    id,
    plan_id: sw.billed.id,
    plan_code: sw.plan.code,
    overridden: sw.billed.id !== sw.plan.id,
    name: sw.name !== undefined ? sw.name : current.name,
    ending_at: sw.endingAt !== undefined ? sw.endingAt : current.ending_at,
    initial_started_at: current.initial_started_at ?? current.started_at,
    terminated_at: null,
    canceled_at: null,
    previous_subscription_id: current.id,
    previous_plan_code: current.plan_code,
    next_subscription_id: null,
    next_plan_code: null,
    downgrade_plan_date: null,
    on_termination_credit_note: sw.billed.pay_in_advance ? "credit" : null,
    on_termination_invoice: "generate",
    ...chooseSections(NO_SECTIONS, sw.sections ?? {}, id, now),
    created_at: now,
    updated_at: now,
  };
}
