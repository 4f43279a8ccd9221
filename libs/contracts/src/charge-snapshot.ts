import { z } from "zod";
import { chargeFilterToProto, chargePropertiesToProto } from "./charge-properties";
import { maybe, properties, text } from "./events/fields";
import type * as U from "./generated/usage-messages";

/**
 * A charge fee's snapshot (billing.usage.v1.ChargeSnapshot) as invoicing keeps it on the invoiced
 * fee: the message the usage service answered; or, on fees invoiced before snapshots travelled as
 * messages, the JSON text it answered then.
 */
export type StoredChargeSnapshot = U.ChargeSnapshot__Output | string;

/** The snapshot text the usage service answered before ChargeSnapshot (its charge and metric as the catalog's views). */
const snapshotTextSchema = z.object({
  v: z.literal(1),
  charge: z.object({
    svc_id: text,
    billable_metric_code: text,
    charge_model: text,
    pay_in_advance: z.boolean().default(false),
    prorated: z.boolean().default(false),
    min_amount_cents: z.number().int().default(0),
    properties: properties.default({}),
    filters: z
      .array(
        z.object({
          invoice_display_name: maybe(text),
          properties: properties.default({}),
          values: z.record(z.string(), z.array(text)),
        }),
      )
      .default([]),
  }),
  metric: z
    .object({
      svc_id: text,
      code: text,
      name: text,
      aggregation_type: text,
      field_name: maybe(text),
      recurring: z.boolean().default(false),
      rounding_function: maybe(text),
      rounding_precision: maybe(z.number()),
      weighted_interval: maybe(text),
      expression: maybe(text),
      filters: z.array(z.object({ key: text, values: z.array(text) })).default([]),
    })
    .optional(),
  currency: text,
  from: text,
  to: text,
  events_from: text,
  period_days: z.number(),
  billed_days: z.number().int().nullish(),
  time_zone: text,
  read_through_seq: z.number().int().optional(),
});

/** What invoicing reads of a stored snapshot: the charge and period it prices, and the message to ask an audit with. */
export interface StoredSnapshotRead {
  chargeId: string;
  billableMetricCode: string;
  /** the charges period (ISO 8601), both ends inclusive as billed */
  from: string;
  to: string;
  /** a consistent read's ingest sequence */
  readThroughSeq: number | undefined;
  message: U.ChargeSnapshot;
}

const instant = (v: string) => v !== "" && !Number.isNaN(Date.parse(v));

/**
 * A stored snapshot → what invoicing reads of it (text kept before messages: checked with its
 * schema); null when it names no charge or period (a fee without an audit-able snapshot).
 */
export function storedChargeSnapshot(stored: StoredChargeSnapshot | null | undefined): StoredSnapshotRead | null {
  const message = typeof stored === "string" ? snapshotOfText(stored) : (stored ?? null);
  const charge = message?.charge;
  if (!message || !charge?.svc_id || !instant(message.from ?? "") || !instant(message.to ?? "")) return null;
  const seq = message.read_through_seq;
  return {
    chargeId: charge.svc_id,
    billableMetricCode: charge.billable_metric_code ?? "",
    from: message.from!,
    to: message.to!,
    readThroughSeq: typeof seq === "number" && Number.isSafeInteger(seq) ? seq : undefined,
    message,
  };
}

/** Snapshot text kept before messages → the message (null: malformed). */
function snapshotOfText(stored: string): U.ChargeSnapshot | null {
  let raw: unknown;
  try {
    raw = JSON.parse(stored);
  } catch {
    return null;
  }
  const parsed = snapshotTextSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { charge: c, metric: m, ...s } = parsed.data;
  return {
    v: 1,
    charge: {
      svc_id: c.svc_id,
      billable_metric_code: c.billable_metric_code,
      charge_model: c.charge_model,
      pay_in_advance: c.pay_in_advance,
      prorated: c.prorated,
      min_amount_cents: c.min_amount_cents,
      properties: chargePropertiesToProto(c.properties),
      filters: c.filters.map(chargeFilterToProto),
    },
    metric: m
      ? {
          svc_id: m.svc_id,
          code: m.code,
          name: m.name,
          aggregation_type: m.aggregation_type,
          field_name: m.field_name ?? undefined,
          recurring: m.recurring,
          rounding_function: m.rounding_function ?? undefined,
          rounding_precision: m.rounding_precision ?? undefined,
          weighted_interval: m.weighted_interval ?? undefined,
          expression: m.expression ?? undefined,
          filters: m.filters,
        }
      : null,
    currency: s.currency,
    from: s.from,
    to: s.to,
    events_from: s.events_from,
    period_days: s.period_days,
    billed_days: s.billed_days ?? undefined,
    time_zone: s.time_zone,
    read_through_seq: s.read_through_seq,
  };
}
