import { Decimal, ONE } from "../decimal";
import type { AggregationResult, UsageEvent } from "./types";
import { byTimestamp } from "./values";

export type UniqueOperation = "add" | "remove";

export function operationOf(event: UsageEvent): UniqueOperation {
  return event.properties?.["operation_type"] === "remove" ? "remove" : "add";
}

export function uniqueKey(event: UsageEvent, field: string): string | null {
  const value = event.properties?.[field];
  return value === undefined || value === null ? null : String(value);
}

/** Per distinct value, its relevant operations in time order (repeats collapsed, a leading remove dropped). */
export function uniqueTimelines(
  events: readonly UsageEvent[],
  field: string,
): Map<string, { op: UniqueOperation; event: UsageEvent }[]> {
  const timelines = new Map<string, { op: UniqueOperation; event: UsageEvent }[]>();
  for (const event of byTimestamp(events)) {
    const key = uniqueKey(event, field);
    if (key === null) continue;
    const op = operationOf(event);
    let timeline = timelines.get(key);
    if (!timeline) timelines.set(key, (timeline = []));
    const previous = timeline[timeline.length - 1]?.op ?? "remove";
    if (previous !== op) timeline.push({ op, event });
  }
  return timelines;
}

/**
 * unique_count_agg: distinct values whose last relevant operation is "add".
 * Lago quirk: the fee's events_count is the unique count itself, not the number of events.
 */
export function uniqueCountAggregation(
  events: readonly UsageEvent[],
  field: string,
  withEventValues: boolean,
): AggregationResult {
  let active = 0;
  for (const timeline of uniqueTimelines(events, field).values()) {
    if (timeline[timeline.length - 1]?.op === "add") active++;
  }
  return {
    units: new Decimal(active),
    eventsCount: active,
    eventValues: withEventValues ? Array.from({ length: active }, () => ONE) : undefined,
  };
}
