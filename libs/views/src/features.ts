import type { CatalogMessages as M } from "@billing/contracts";
import { or } from "./presenting";
import type { featureObject, featurePrivilegeObject, ViewOf } from "./schemas";

type Privilege = Pick<M.FeaturePrivilege__Output, "code" | "name" | "value_type" | "select_options">;

/** A privilege's config as Lago shows it: the options of a select, {} for every other type. */
export const privilegeConfig = (p: Privilege) => (p.select_options?.length ? { select_options: p.select_options } : {});

/** Lago's FeaturePrivilegeObject. */
export function presentPrivilege(p: Privilege) {
  return { code: p.code, name: or(p.name), value_type: p.value_type, config: privilegeConfig(p) } satisfies ViewOf<
    typeof featurePrivilegeObject
  >;
}

/** Lago's FeatureObject. */
export function presentFeature(f: M.Feature__Output) {
  return {
    code: f.code,
    name: or(f.name),
    description: or(f.description),
    privileges: (f.privileges ?? []).map(presentPrivilege),
    created_at: f.created_at,
  } satisfies ViewOf<typeof featureObject>;
}
