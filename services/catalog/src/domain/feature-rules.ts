import { Violations } from "./patch";
import { PRIVILEGE_VALUE_TYPES, type Feature, type Privilege } from "./feature";

/** A privilege as a client sends it: absent keys are left alone on an existing privilege. */
export interface PrivilegeInput {
  code: string;
  name?: string | null;
  value_type?: string | null;
  config?: PrivilegeConfigInput | null;
}

/** A privilege's config as sent (Lago's `{ select_options }`): its options when the key was sent, even empty. */
export interface PrivilegeConfigInput {
  select_options?: string[];
}

/** What a create or update sends: name/description when present, privileges to add or amend. */
export interface FeatureChange {
  code?: string;
  name?: string | null;
  description?: string | null;
  privileges?: PrivilegeInput[];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Config is {} for every type but select, which has exactly a non-empty `select_options` list of strings. */
export function privilegeConfigIsValid(valueType: string, config: unknown): boolean {
  if (!isObject(config)) return false;
  if (valueType !== "select") return Object.keys(config).length === 0;
  const options = config.select_options;
  return (
    Object.keys(config).length === 1 &&
    Array.isArray(options) &&
    options.length > 0 &&
    options.every((o) => typeof o === "string")
  );
}

/** The invariants of a stored feature and its privileges, in Lago's field names ("privilege.code"). */
export function featureViolations(feature: Feature, sent: PrivilegeInput[] = []): Record<string, string[]> | null {
  const v = new Violations();
  const sentCodes = sent.map((p) => p.code?.trim());
  if (new Set(sentCodes).size !== sentCodes.length) v.add("privilege.code", "value_is_duplicated");
  if (v.mandatory("code", feature.code) && feature.code.length > 255) v.add("code", "value_is_too_long");
  if ((feature.name?.length ?? 0) > 255) v.add("name", "value_is_too_long");
  if ((feature.description?.length ?? 0) > 600) v.add("description", "value_is_too_long");
  for (const p of feature.privileges) {
    if (v.mandatory("privilege.code", p.code) && p.code.length > 255) v.add("privilege.code", "value_is_too_long");
    if ((p.name?.length ?? 0) > 255) v.add("privilege.name", "value_is_too_long");
    if (v.mandatory("privilege.value_type", p.value_type))
      v.oneOf("privilege.value_type", p.value_type, PRIVILEGE_VALUE_TYPES);
    if (!privilegeConfigIsValid(p.value_type, p.config)) v.add("privilege.config", "invalid_format");
  }
  return v.result();
}

/** A new privilege: value_type defaults to string, config to {}. */
function newPrivilege(input: PrivilegeInput, id: string, now: Date): Privilege {
  return {
    id,
    code: input.code?.trim() ?? "",
    name: input.name ?? null,
    value_type: input.value_type ?? "string",
    config: input.config?.select_options ? { select_options: [...input.config.select_options] } : {},
    created_at: now,
  };
}

/** An existing privilege amended: its name when sent, sent select options added to its own (type and code never change). */
function amendedPrivilege(current: Privilege, input: PrivilegeInput): Privilege {
  const next = { ...current, config: { ...current.config } };
  if (input.name !== undefined) next.name = input.name;
  const options = input.config?.select_options;
  if (options?.length) {
    const own = Array.isArray(next.config.select_options) ? (next.config.select_options as unknown[]) : [];
    next.config.select_options = [...new Set([...own, ...options])];
  }
  return next;
}

/**
 * The feature after a change: name and description when sent; each privilege sent is added, or amended when
 * the feature already has its code. Privileges not sent are kept (removing one is its own operation).
 */
export function changedFeature(current: Feature, change: FeatureChange, newId: () => string, now: Date): Feature {
  const next: Feature = { ...current, privileges: [...current.privileges] };
  if (change.code !== undefined) next.code = change.code.trim();
  if (change.name !== undefined) next.name = change.name;
  if (change.description !== undefined) next.description = change.description;
  for (const input of change.privileges ?? []) {
    const at = next.privileges.findIndex((p) => p.code === input.code?.trim());
    if (at >= 0) next.privileges[at] = amendedPrivilege(next.privileges[at]!, input);
    else next.privileges.push(newPrivilege(input, newId(), now));
  }
  return next;
}
