import { createHash } from "node:crypto";
import { billableMetricView, chargeView } from "@billing/contracts";
import { z } from "zod";
import type { ChargeCopy, MetricCopy } from "./read-copies";

/**
 * What a pay-in-advance fee was priced with, kept once per distinct content (never per fee): the
 * charge copy (model, properties, filters, proration…), the metric copy (aggregation, field,
 * filters, recurring…) and the plan's currency. The subscription's periods are not part of it: an
 * audit takes them from the subscription's copy, as the pricing did. Pure data; `v` versions its
 * shape.
 */
export interface AdvanceChargeSnapshot {
  v: 1;
  charge: ChargeCopy;
  metric: MetricCopy;
  currency: string;
}

/**
 * JSON text with every object's keys sorted: the same content gives the same text whatever order
 * its keys were built in (a copy read back from MongoDB, one parsed from an event).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * A snapshot's version: sha-256 of its canonical JSON, the first 128 bits in hex (32 characters:
 * each invoiced fee carries it, and a collision among charge versions is out of reach at that
 * length). The same charge, metric and currency always give the same version; any change of them
 * gives another.
 */
export const chargeVersionOfJson = (json: string): string =>
  createHash("sha256").update(json).digest("hex").slice(0, 32);

/** The snapshot of what a pay-in-advance fee is priced with: its version, and its canonical JSON (what is stored, and hashed). */
export function advanceChargeSnapshot(
  charge: ChargeCopy,
  metric: MetricCopy,
  currency: string,
): { version: string; json: string } {
  const json = canonicalJson({ v: 1, charge, metric, currency } satisfies AdvanceChargeSnapshot);
  return { version: chargeVersionOfJson(json), json };
}

/** A stored snapshot's schema: the charge and metric as the catalog's views (the copies are those views). */
const advanceChargeSnapshotSchema = z.object({
  v: z.literal(1),
  charge: chargeView,
  metric: billableMetricView.extend({ organization_id: z.string() }),
  currency: z.string(),
});

/** A stored snapshot → checked with its schema to replay from (a malformed one is refused: null). */
export function parseAdvanceChargeSnapshot(json: string): AdvanceChargeSnapshot | null {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = advanceChargeSnapshotSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
