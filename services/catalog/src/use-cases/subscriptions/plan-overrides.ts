import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import type { Patch } from "../../domain/patch";
import type { Plan } from "../../domain/types";
import type { CatalogDeps } from "../deps";
import { changedPlan, type ChargeFilterInput, type ChargeInput, type PlanChange } from "../plans/plan-change";

/** A charge override: `id` names a charge of the public plan (or of the private copy). */
export interface ChargeOverride {
  id: string;
  invoice_display_name?: string | null;
  min_amount_cents?: number | null;
  properties?: Record<string, unknown> | null;
  filters?: ChargeFilterInput[] | null;
  tax_codes?: string[] | null;
}

/** plan_overrides as sent (spec: Subscription). */
export interface PlanOverrides {
  patch: Patch<
    Pick<Plan, "amount_cents" | "amount_currency" | "description" | "invoice_display_name" | "name" | "trial_period">
  >;
  taxCodes?: string[];
  charges?: ChargeOverride[];
  minimumCommitment?: PlanChange["minimumCommitment"];
  usageThresholds?: PlanChange["usageThresholds"];
}

/** A copy of the public plan owned by one subscription: new ids, each charge remembering its origin. */
function copyOf(parent: Plan, now: Date): Plan {
  return {
    ...structuredClone(parent),
    id: randomUUID(),
    parent_id: parent.id,
    charges: parent.charges.map((c) => ({ ...structuredClone(c), id: randomUUID(), parent_id: c.id, created_at: now })),
    fixed_charges: parent.fixed_charges.map((f) => ({ ...structuredClone(f), id: randomUUID(), created_at: now })),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

/** The overrides as a change of the private plan: every charge kept, the overridden ones changed. */
function asPlanChange(plan: Plan, overrides: PlanOverrides): PlanChange {
  const change: PlanChange = {
    patch: overrides.patch as Patch<Plan>,
    taxCodes: overrides.taxCodes,
    minimumCommitment: overrides.minimumCommitment,
    usageThresholds: overrides.usageThresholds,
  };
  if (!overrides.charges) return change;
  const unknown = overrides.charges.findIndex((o) => !plan.charges.some((c) => c.id === o.id || c.parent_id === o.id));
  if (unknown >= 0) throw AppError.validation({ [`plan_overrides.charges.${unknown}.id`]: ["value_is_invalid"] });
  change.charges = plan.charges.map((c): ChargeInput => {
    const o = overrides.charges!.find((x) => x.id === c.id || x.id === c.parent_id);
    const base: ChargeInput = { id: c.id, billable_metric_id: c.billable_metric_id, charge_model: c.charge_model };
    if (!o) return base;
    return {
      ...base,
      ...(o.invoice_display_name !== undefined && { invoice_display_name: o.invoice_display_name }),
      ...(o.min_amount_cents != null && { min_amount_cents: o.min_amount_cents }),
      ...(o.properties != null && { properties: o.properties }),
      ...(o.filters != null && { filters: o.filters }),
      ...(o.tax_codes !== undefined && { tax_codes: o.tax_codes }),
    };
  });
  return change;
}

/** A new private plan: the public plan with the overrides applied (validated like any plan change; nothing stored). */
export function childPlanOf(deps: CatalogDeps, parent: Plan, overrides: PlanOverrides, now: Date): Promise<Plan> {
  const child = copyOf(parent, now);
  return changedPlan(deps, child, asPlanChange(child, overrides), now);
}

/** A private plan changed by new overrides (nothing stored). */
export async function overriddenAgain(
  deps: CatalogDeps,
  child: Plan,
  overrides: PlanOverrides,
  now: Date,
): Promise<Plan> {
  const next = await changedPlan(deps, child, asPlanChange(child, overrides), now);
  return { ...next, updated_at: new Date(Math.max(now.getTime(), child.updated_at.getTime() + 1)) };
}
