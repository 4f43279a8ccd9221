import { randomUUID } from "node:crypto";
import { applyPatch, Violations, type Patch } from "../../domain/patch";
import { checkCharge, checkFixedCharge, PLAN_PATCHABLE, planViolations } from "../../domain/plan-rules";
import type { Charge, FixedCharge, Plan } from "../../domain/types";
import { taxIdsOf } from "../taxes/tax-refs";
import type { CatalogDeps } from "../deps";
import { liveRecordsById } from "../catalog-record-refs";
import { refuseIfInvalid } from "../catalog-record-writes";

export interface ChargeFilterInput {
  invoice_display_name?: string | null;
  properties?: Record<string, unknown> | null;
  values?: Record<string, string[]> | null;
}

/** A usage charge as sent; `id` names an existing charge of the plan to keep (its svc_id and unsent fields). */
export interface ChargeInput {
  id?: string | null;
  billable_metric_id: string;
  charge_model: string;
  code?: string | null;
  pay_in_advance?: boolean | null;
  invoiceable?: boolean | null;
  prorated?: boolean | null;
  min_amount_cents?: number | null;
  regroup_paid_fees?: string | null;
  invoice_display_name?: string | null;
  properties?: Record<string, unknown> | null;
  filters?: ChargeFilterInput[] | null;
  tax_codes?: string[] | null;
}

export interface FixedChargeInput {
  id?: string | null;
  add_on_id: string;
  charge_model: string;
  code?: string | null;
  pay_in_advance?: boolean | null;
  prorated?: boolean | null;
  units?: number | null;
  invoice_display_name?: string | null;
  properties?: Record<string, unknown> | null;
  tax_codes?: string[] | null;
}

export interface PlanChange {
  patch: Patch<Plan>;
  /** Each list, when sent, replaces the current one. */
  taxCodes?: string[];
  charges?: ChargeInput[];
  fixedCharges?: FixedChargeInput[];
  /** null clears it. */
  minimumCommitment?: {
    amount_cents: number;
    invoice_display_name?: string | null;
    tax_codes?: string[] | null;
  } | null;
  usageThresholds?: { threshold_display_name?: string | null; amount_cents: number; recurring?: boolean | null }[];
}

const pick = <T>(sent: T | null | undefined, current: T): T => (sent === undefined || sent === null ? current : sent);

/**
 * Applies a change to a plan: unknown metrics or add-ons (404) first, then every field error at
 * once (422, charge errors keyed `charges.<i>.…`), then unknown taxes (404). Nothing is stored
 * by this function; it throws before the caller writes.
 */
export async function changedPlan(deps: CatalogDeps, base: Plan, change: PlanChange, now: Date): Promise<Plan> {
  const org = base.organization_id;
  const next: Plan = applyPatch(base, change.patch, PLAN_PATCHABLE);
  const v = new Violations();

  if (change.charges !== undefined) {
    const metrics = await liveRecordsById(
      deps.billableMetrics,
      org,
      change.charges.map((c) => c.billable_metric_id),
      "billable_metric",
    );
    const existing = new Map(base.charges.map((c) => [c.id, c]));
    const charges: Charge[] = [];
    for (const [i, input] of change.charges.entries()) {
      const metric = metrics.get(input.billable_metric_id)!;
      const kept = input.id ? existing.get(input.id) : undefined;
      const current: Charge = kept ?? {
        id: randomUUID(),
        billable_metric_id: metric.id,
        billable_metric_code: metric.code,
        code: null,
        charge_model: input.charge_model,
        pay_in_advance: false,
        invoiceable: true,
        prorated: false,
        min_amount_cents: 0,
        regroup_paid_fees: null,
        invoice_display_name: null,
        properties: {},
        filters: [],
        tax_ids: [],
        created_at: now,
      };
      const charge: Charge = {
        ...current,
        billable_metric_id: metric.id,
        billable_metric_code: metric.code,
        charge_model: input.charge_model,
        code: input.code !== undefined ? input.code : current.code,
        pay_in_advance: pick(input.pay_in_advance, current.pay_in_advance),
        invoiceable: pick(input.invoiceable, current.invoiceable),
        prorated: pick(input.prorated, current.prorated),
        min_amount_cents: pick(input.min_amount_cents, current.min_amount_cents),
        regroup_paid_fees: input.regroup_paid_fees !== undefined ? input.regroup_paid_fees : current.regroup_paid_fees,
        invoice_display_name:
          input.invoice_display_name !== undefined ? input.invoice_display_name : current.invoice_display_name,
      };
      const checked = checkCharge(
        v,
        i,
        {
          ...charge,
          properties: pick(input.properties, current.properties),
          filters: input.filters ?? (kept && !input.filters ? current.filters : []),
        },
        metric.filters,
      );
      charge.properties = checked.properties;
      charge.filters = checked.filters;
      if (input.tax_codes !== undefined) charge.tax_ids = input.tax_codes ?? [];
      charges.push(charge);
    }
    next.charges = charges;
  }

  if (change.fixedCharges !== undefined) {
    const addOns = await liveRecordsById(
      deps.addOns,
      org,
      change.fixedCharges.map((c) => c.add_on_id),
      "add_on",
    );
    const existing = new Map(base.fixed_charges.map((c) => [c.id, c]));
    next.fixed_charges = change.fixedCharges.map((input, i) => {
      const addOn = addOns.get(input.add_on_id)!;
      const kept = input.id ? existing.get(input.id) : undefined;
      const current: FixedCharge = kept ?? {
        id: randomUUID(),
        add_on_id: addOn.id,
        add_on_code: addOn.code,
        code: null,
        charge_model: input.charge_model,
        pay_in_advance: false,
        prorated: false,
        units: 0,
        invoice_display_name: null,
        properties: {},
        tax_ids: [],
        created_at: now,
      };
      const charge: FixedCharge = {
        ...current,
        add_on_id: addOn.id,
        add_on_code: addOn.code,
        charge_model: input.charge_model,
        code: input.code !== undefined ? input.code : current.code,
        pay_in_advance: pick(input.pay_in_advance, current.pay_in_advance),
        prorated: pick(input.prorated, current.prorated),
        units: pick(input.units, current.units),
        invoice_display_name:
          input.invoice_display_name !== undefined ? input.invoice_display_name : current.invoice_display_name,
      };
      charge.properties = checkFixedCharge(v, i, { ...charge, properties: pick(input.properties, current.properties) });
      if (input.tax_codes !== undefined) charge.tax_ids = input.tax_codes ?? [];
      return charge;
    });
  }

  if (change.minimumCommitment !== undefined) {
    const mc = change.minimumCommitment;
    const current = base.minimum_commitment;
    next.minimum_commitment = mc && {
      id: current?.id ?? randomUUID(),
      amount_cents: mc.amount_cents,
      invoice_display_name: mc.invoice_display_name ?? null,
      tax_ids: mc.tax_codes ?? [],
      created_at: current?.created_at ?? now,
      updated_at: now,
    };
  }
  if (change.usageThresholds !== undefined) {
    next.usage_thresholds = change.usageThresholds.map((t) => ({
      id: randomUUID(),
      threshold_display_name: t.threshold_display_name ?? null,
      amount_cents: t.amount_cents,
      recurring: t.recurring ?? false,
      created_at: now,
      updated_at: now,
    }));
  }
  for (const [key, codes] of Object.entries(planViolations(next) ?? {})) codes.forEach((c) => v.add(key, c));
  refuseIfInvalid(v.result());

  // Tax codes (held as codes until here) → ids of live taxes; an unknown code → 404 tax_not_found.
  if (change.taxCodes !== undefined) next.tax_ids = await taxIdsOf(deps, org, change.taxCodes);
  if (change.minimumCommitment && next.minimum_commitment) {
    next.minimum_commitment.tax_ids = await taxIdsOf(deps, org, change.minimumCommitment.tax_codes ?? []);
  }
  if (change.charges) {
    for (const [i, input] of change.charges.entries()) {
      if (input.tax_codes !== undefined) next.charges[i]!.tax_ids = await taxIdsOf(deps, org, input.tax_codes ?? []);
    }
  }
  if (change.fixedCharges) {
    for (const [i, input] of change.fixedCharges.entries()) {
      if (input.tax_codes !== undefined)
        next.fixed_charges[i]!.tax_ids = await taxIdsOf(deps, org, input.tax_codes ?? []);
    }
  }
  return next;
}
