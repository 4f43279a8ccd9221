import type { Feature, PlanEntitlement, Privilege } from "./feature";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function privilegeView(p: Privilege) {
  return { code: p.code, name: p.name, value_type: p.value_type, config: { ...p.config } };
}

/** The public view of a feature (Lago's FeatureObject, plus our id and dates). */
export function featureView(f: Feature) {
  return {
    svc_id: f.id,
    code: f.code,
    name: f.name,
    description: f.description,
    privileges: f.privileges.map(privilegeView),
    created_at: f.created_at.toISOString(),
    updated_at: f.updated_at.toISOString(),
    deleted_at: iso(f.deleted_at),
  };
}
export type FeatureView = ReturnType<typeof featureView>;

/** A plan's entitlement to a live feature: the feature and the values set for its live privileges (Lago's PlanEntitlementObject). */
export function planEntitlementView(feature: Feature, e: PlanEntitlement) {
  const privileges = new Map(feature.privileges.map((p) => [p.id, p]));
  return {
    code: feature.code,
    name: feature.name,
    description: feature.description,
    privileges: e.values.flatMap((v) => {
      const p = privileges.get(v.privilege_id);
      return p ? [{ ...privilegeView(p), value: v.value }] : [];
    }),
  };
}
export type PlanEntitlementView = ReturnType<typeof planEntitlementView>;

/** The views of a plan's entitlements whose feature is live (`features` by id), in the plan's order. */
export function planEntitlementViews(
  entitlements: PlanEntitlement[],
  features: Map<string, Feature>,
): PlanEntitlementView[] {
  return entitlements.flatMap((e) => {
    const feature = features.get(e.feature_id);
    return feature ? [planEntitlementView(feature, e)] : [];
  });
}
