import { randomUUID } from "node:crypto";
import { Subjects } from "@billing/bus";
import type { Plan } from "../../domain/types";
import type { PlanView } from "../../domain/views";
import { planEvent } from "../../events/plan-events";
import type { CatalogDeps } from "../deps";
import { insertRecord } from "../catalog-record-writes";
import { changedPlan, type PlanChange } from "./plan-change";
import { planViews } from "./plan-refs";

/** POST /plans: stored with its plan.created event (the whole view), then published. */
export async function createPlan(
  deps: CatalogDeps,
  organizationId: string,
  change: PlanChange,
  requestId?: string,
): Promise<PlanView> {
  const now = deps.clock.now();
  const blank: Plan = {
    id: randomUUID(),
    organization_id: organizationId,
    code: "",
    name: "",
    description: null,
    invoice_display_name: null,
    interval: "",
    amount_cents: null as unknown as number,
    amount_currency: "",
    trial_period: null,
    pay_in_advance: null as unknown as boolean,
    bill_charges_monthly: null,
    bill_fixed_charges_monthly: null,
    tax_ids: [],
    minimum_commitment: null,
    usage_thresholds: [],
    charges: [],
    fixed_charges: [],
    metadata: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const plan = await changedPlan(deps, blank, change, now);
  const [view] = await planViews(deps, organizationId, [plan]);
  const event = planEvent(Subjects.catalog.planCreated, organizationId, view!, now, requestId);
  await insertRecord(deps.plans, plan, event);
  await deps.publishPlanEvent(plan.id, event);
  return view!;
}
