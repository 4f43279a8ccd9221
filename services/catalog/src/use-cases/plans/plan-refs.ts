import type { Plan, Tax } from "../../domain/types";
import { planView, type PlanRefs, type PlanView } from "../../domain/views";
import type { CatalogDeps } from "../deps";
import { entitlementViewsOf } from "../entitlements/plan-entitlement-refs";

/** The live taxes, metric codes, add-on codes and names, and entitlements the plans refer to, one query each (two for entitlements). */
export async function planRefs(deps: CatalogDeps, organizationId: string, plans: Plan[]): Promise<PlanRefs> {
  const taxIds = new Set<string>();
  const metricIds = new Set<string>();
  const addOnIds = new Set<string>();
  for (const p of plans) {
    p.tax_ids.forEach((id) => taxIds.add(id));
    p.minimum_commitment?.tax_ids.forEach((id) => taxIds.add(id));
    for (const c of p.charges) {
      metricIds.add(c.billable_metric_id);
      c.tax_ids.forEach((id) => taxIds.add(id));
    }
    for (const f of p.fixed_charges) {
      addOnIds.add(f.add_on_id);
      f.tax_ids.forEach((id) => taxIds.add(id));
    }
  }
  const [taxes, metrics, addOns, entitlements] = await Promise.all([
    deps.taxes.findLiveByIds(organizationId, [...taxIds]),
    deps.billableMetrics.findLiveByIds(organizationId, [...metricIds]),
    deps.addOns.findLiveByIds(organizationId, [...addOnIds]),
    entitlementViewsOf(
      deps,
      organizationId,
      plans.map((p) => p.parent_id ?? p.id),
    ),
  ]);
  return {
    taxes: new Map<string, Tax>(taxes.map((t) => [t.id, t])),
    metricCodes: new Map(metrics.map((m) => [m.id, m.code])),
    addOnCodes: new Map(addOns.map((a) => [a.id, a.code])),
    addOnNames: new Map(addOns.map((a) => [a.id, a.name])),
    entitlements,
  };
}

/** The public views of plans (what the API returns and the events carry). */
export async function planViews(deps: CatalogDeps, organizationId: string, plans: Plan[]): Promise<PlanView[]> {
  const refs = await planRefs(deps, organizationId, plans);
  return plans.map((p) => planView(p, refs));
}
