import type { UsageEvent } from "./aggregations/types";

export type GroupedBy = Record<string, string | null>;

/** The pricing group keys of charge (or filter) properties: pricing_group_keys, or legacy grouped_by. */
export function pricingGroupKeys(properties: Record<string, unknown> | undefined): string[] {
  const keys = properties?.["pricing_group_keys"] ?? properties?.["grouped_by"];
  return Array.isArray(keys) ? keys.map(String) : [];
}

/** Splits events by the values of `keys` (a missing property is the null group), in first-seen order. */
export function groupEvents<E extends UsageEvent>(
  events: readonly E[],
  keys: readonly string[],
): { groupedBy: GroupedBy; events: E[] }[] {
  const groups = new Map<string, { groupedBy: GroupedBy; events: E[] }>();
  for (const event of events) {
    const groupedBy: GroupedBy = {};
    for (const key of keys) {
      const raw = event.properties?.[key];
      groupedBy[key] = raw === undefined || raw === null ? null : String(raw);
    }
    const id = JSON.stringify(keys.map((k) => groupedBy[k]));
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { groupedBy, events: [] }));
    group.events.push(event);
  }
  return [...groups.values()];
}
