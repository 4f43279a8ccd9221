import type { CatalogRecord } from "./types";

/** The types a privilege's value can have; a `select` lists its options in `config.select_options`. */
export const PRIVILEGE_VALUE_TYPES = ["integer", "string", "boolean", "select"] as const;
export type PrivilegeValueType = (typeof PRIVILEGE_VALUE_TYPES)[number];

/** One thing a feature lets a plan set (a maximum, a switch, an option). Its code never changes. */
export interface Privilege {
  id: string;
  code: string;
  name: string | null;
  value_type: string;
  /** {} unless value_type is select: { select_options: [...] }. */
  config: Record<string, unknown>;
  created_at: Date;
}

/** A feature of the organization's product, granted to plans as an entitlement. Its code never changes. */
export interface Feature extends CatalogRecord {
  name: string | null;
  description: string | null;
  privileges: Privilege[];
}

export type PrivilegeValue = number | boolean | string;

/** A value as a client sent it for a privilege: a scalar, null when none, or `{ other: true }` for an object or a list (never a value). */
export type SentPrivilegeValue = number | boolean | string | null | { other: true };

/** A feature granted to a plan, with the values it sets for some of the feature's privileges. */
export interface PlanEntitlement {
  feature_id: string;
  values: { privilege_id: string; value: PrivilegeValue }[];
  created_at: Date;
  updated_at: Date;
}

/** Every entitlement of one plan, stored and changed together (`version` guards concurrent writes). */
export interface PlanEntitlementSet {
  plan_id: string;
  organization_id: string;
  entitlements: PlanEntitlement[];
  version: number;
  updated_at: Date;
}
