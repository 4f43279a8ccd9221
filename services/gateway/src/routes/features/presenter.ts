import { or, type Message } from "../../http/presenting";

/** A privilege's config as Lago shows it: the options of a select, {} for every other type. */
export const privilegeConfig = (p: Message) => (p.select_options?.length ? { select_options: p.select_options } : {});

/** Lago's FeaturePrivilegeObject. */
export function presentPrivilege(p: Message) {
  return { code: p.code, name: or(p.name), value_type: p.value_type, config: privilegeConfig(p) };
}

/** Lago's FeatureObject. */
export function presentFeature(f: Message) {
  return {
    code: f.code, name: or(f.name), description: or(f.description), privileges: (f.privileges ?? []).map(presentPrivilege),
    created_at: f.created_at,
  };
}
