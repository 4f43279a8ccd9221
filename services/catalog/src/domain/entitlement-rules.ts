import type { PlanEntitlement, Privilege, PrivilegeValue, SentPrivilegeValue } from "./feature";

const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;

/** The value a plan gives a privilege, typed by the privilege, or Lago's error_details when it does not fit. */
export function privilegeValue(
  privilege: Privilege,
  raw: SentPrivilegeValue | undefined,
): { value: PrivilegeValue } | { errors: Record<string, string[]> } {
  const invalid = (code: string) => ({ errors: { [`${privilege.code}_privilege_value`]: [code] } });
  if (raw === null || raw === undefined) return { errors: { "privilege.value": ["value_is_mandatory"] } };
  switch (privilege.value_type) {
    case "select": {
      const options = (privilege.config.select_options as unknown[] | undefined) ?? [];
      return typeof raw === "string" && options.includes(raw) ? { value: raw } : invalid("value_not_in_select_options");
    }
    case "boolean":
      if (raw === true || raw === "true") return { value: true };
      if (raw === false || raw === "false") return { value: false };
      return invalid("value_is_invalid");
    case "integer":
      if (typeof raw === "number" && Number.isSafeInteger(raw)) return { value: raw };
      if (typeof raw === "string" && INTEGER_TEXT.test(raw) && Number.isSafeInteger(Number(raw)))
        return { value: Number(raw) };
      return invalid("value_is_invalid");
    default:
      if (typeof raw !== "string") return invalid("value_is_invalid");
      return raw.trim() ? { value: raw } : { errors: { "privilege.value": ["value_is_mandatory"] } };
  }
}

type Values = PlanEntitlement["values"];

/** How a write treats what was not sent: POST replaces everything, PATCH keeps it. */
export type EntitlementWriteMode = "replace" | "merge";

function withValues(
  entitlement: PlanEntitlement,
  values: Values,
  mode: EntitlementWriteMode,
  now: Date,
): PlanEntitlement {
  if (mode === "replace") return { ...entitlement, values, updated_at: now };
  const sent = new Map(values.map((v) => [v.privilege_id, v]));
  const updated = entitlement.values.map((v) => sent.get(v.privilege_id) ?? v);
  const added = values.filter((n) => !entitlement.values.some((v) => v.privilege_id === n.privilege_id));
  return { ...entitlement, values: [...updated, ...added], updated_at: now };
}

/**
 * A plan's entitlements after a write of `sent` (feature id → validated values). Replace: only the features
 * sent remain, each with exactly the values sent. Merge: sent values are set, everything else stays.
 * Existing entitlements keep their place and creation date; new ones come last, in the order sent.
 */
export function nextEntitlements(
  current: PlanEntitlement[],
  sent: Map<string, Values>,
  mode: EntitlementWriteMode,
  now: Date,
): PlanEntitlement[] {
  const kept = current
    .filter((e) => mode === "merge" || sent.has(e.feature_id))
    .map((e) => (sent.has(e.feature_id) ? withValues(e, sent.get(e.feature_id)!, mode, now) : e));
  const added = [...sent]
    .filter(([featureId]) => !current.some((e) => e.feature_id === featureId))
    .map(([feature_id, values]) => ({ feature_id, values, created_at: now, updated_at: now }));
  return [...kept, ...added];
}
