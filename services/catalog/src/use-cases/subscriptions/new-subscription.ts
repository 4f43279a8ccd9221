import { frozenTime } from "@billing/clock";
import { randomUUID } from "node:crypto";
import { chooseSections, NO_SECTIONS, type SectionChoice } from "@billing/contracts";
import type { Subscription } from "../../domain/subscription";
import type { Plan } from "../../domain/types";
import type { CustomerRef } from "../../peers/customer-directory";

export interface NewSubscriptionFields {
  organizationId: string;
  externalId: string;
  customer: CustomerRef;
  /** The public plan (its code is the subscription's plan_code) and the plan billed (a private copy or the same). */
  plan: Plan;
  billed: Plan;
  name: string | null;
  billingTime: Subscription["billing_time"];
  subscriptionAt: Date;
  endingAt: Date | null;
  progressiveBillingDisabled?: boolean;
  /** the request's invoice custom sections choice */
  sections?: SectionChoice;
  now: Date;
}

/** A subscription that starts at subscription_at: pending while that is in the future, active otherwise. */
export function newSubscription(f: NewSubscriptionFields): Subscription {
  const pending = f.subscriptionAt.getTime() > f.now.getTime();
  const id = randomUUID();
  return {
    id,
    organization_id: f.organizationId,
    external_id: f.externalId,
    customer_id: f.customer.id,
    external_customer_id: f.customer.external_id,
    plan_id: f.billed.id,
    plan_code: f.plan.code,
    overridden: f.billed.id !== f.plan.id,
    name: f.name,
    status: pending ? "pending" : "active",
    billing_time: f.billingTime,
    subscription_at: f.subscriptionAt,
    started_at: pending ? null : f.subscriptionAt,
    initial_started_at: pending ? null : f.subscriptionAt,
    ending_at: f.endingAt,
    terminated_at: null,
    canceled_at: null,
    activation_at: pending ? f.subscriptionAt : null,
    previous_subscription_id: null,
    previous_plan_code: null,
    next_subscription_id: null,
    next_plan_code: null,
    downgrade_plan_date: null,
    // Lago credits the unused part of an in-advance plan on termination; arrears plans have nothing to credit.
    on_termination_credit_note: f.billed.pay_in_advance ? "credit" : null,
    on_termination_invoice: "generate",
    progressive_billing_disabled: f.progressiveBillingDisabled ?? false,
    ...chooseSections(NO_SECTIONS, f.sections ?? {}, id, f.now),
    sandbox: frozenTime() !== undefined,
    timezone: f.customer.timezone,
    created_at: f.now,
    updated_at: f.now,
  };
}
