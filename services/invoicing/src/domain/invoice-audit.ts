import {
  storedChargeSnapshot,
  type StoredSnapshotRead,
  type UsageEventData,
  type UsageMessages,
} from "@billing/contracts";
import { decimalString, sumCents } from "@billing/pricing";
import type { Fee, Invoice } from "./invoice";

/**
 * GET /invoices/{id}/audit, the pure part: which charge snapshots of an invoice to re-derive, and
 * the comparison of each invoiced fee with what the raw events give under its snapshot.
 */

/** One charge priced for the invoice, to re-derive (a charge's filter and group fees share it). */
export interface SnapshotAsk {
  key: string;
  snapshot: UsageMessages.ChargeSnapshot;
}

/** The snapshots of one subscription priced at one instant: one usage call. */
export interface RederiveAsk {
  externalSubscriptionId: string;
  billedThrough: Date | null;
  snapshots: SnapshotAsk[];
}

/** A fee as the usage service re-derived it from the raw events. */
export interface RederivedFeeData {
  charge_filter_index: number | null;
  grouped_by: Record<string, string | null>;
  true_up: boolean;
  units: string;
  events_count: number;
  amount_cents: number;
  precise_amount_cents: string;
  persistable: boolean;
}

export interface RederivedChargeData {
  fees: RederivedFeeData[];
  events_read: number;
  late_events_count: number;
  late_events: LateEvent[];
}

type SnapshotHead = StoredSnapshotRead;

const snapshotKey = (fee: Pick<Fee, "subscription_id">, head: SnapshotHead) =>
  `${fee.subscription_id}|${head.chargeId}|${head.from}|${head.to}`;

const groupKey = (grouped: Record<string, string | null>) =>
  JSON.stringify(
    Object.entries(grouped)
      .map(([k, v]) => [k, v ?? ""])
      .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)),
  );

const feeKey = (f: {
  charge_filter_index: number | null;
  grouped_by: Record<string, string | null>;
  true_up: boolean;
}) => `${f.charge_filter_index ?? "-"}|${groupKey(f.grouped_by)}|${f.true_up ? "true_up" : "fee"}`;

/** The usage calls an audit makes: per subscription and pricing instant, each charge snapshot once. */
export function rederiveAsks(invoice: Pick<Invoice, "fees">): RederiveAsk[] {
  const asks = new Map<string, RederiveAsk>();
  for (const fee of invoice.fees) {
    if (fee.fee_type !== "charge" || !fee.charge_snapshot) continue;
    const head = storedChargeSnapshot(fee.charge_snapshot);
    if (!head) continue;
    const billedThrough = fee.usage_read_at ? new Date(fee.usage_read_at) : null;
    const askKey = `${fee.external_subscription_id}|${billedThrough?.toISOString() ?? "-"}`;
    let ask = asks.get(askKey);
    if (!ask)
      asks.set(askKey, (ask = { externalSubscriptionId: fee.external_subscription_id, billedThrough, snapshots: [] }));
    const key = snapshotKey(fee, head);
    if (!ask.snapshots.some((s) => s.key === key)) ask.snapshots.push({ key, snapshot: head.message });
  }
  return [...asks.values()];
}

/**
 * Pay-in-advance fees (one per event, created by the pay-in-advance consumer and either invoiced
 * on their own or gathered on a periodic invoice) carry no charge snapshot of their own, but the
 * version of the charge they were priced with (`charge_version`: the usage service keeps that
 * version's snapshot once): they are re-derived by replaying the charge's stored events of their
 * charges period in stored order, on that version. One ask per subscription, charge, period and
 * version (fees priced before versions: none, replayed on the current charge); one usage call per
 * external subscription.
 */
export interface AdvanceFeesAsk {
  key: string;
  externalSubscriptionId: string;
  subscriptionId: string;
  chargeId: string;
  from: Date;
  to: Date;
  feeIds: string[];
  /** the charge version the fees were priced with; null for fees priced before versions */
  chargeVersion: string | null;
}

/** A pay-in-advance fee as the usage service's replay gave it. */
export interface RederivedAdvanceFeeData {
  fee_id: string;
  event_transaction_id: string;
  event_timestamp: string;
  charge_filter_index: number | null;
  grouped_by: Record<string, string | null>;
  units: string;
  amount_cents: number;
  precise_amount_cents: string;
  replay_position: number;
}

export interface RederivedAdvanceChargeData {
  error: string | null;
  billable_metric_code: string;
  events_read: number;
  fees: RederivedAdvanceFeeData[];
}

const isAdvanceFee = (fee: Fee) =>
  fee.fee_type === "charge" && fee.pay_in_advance && !fee.charge_snapshot && !!fee.charge_id && !!fee.from && !!fee.to;
const advanceKey = (fee: Fee) =>
  `${fee.subscription_id}|${fee.charge_id}|${iso(fee.from)}|${iso(fee.to)}|${fee.charge_version ?? ""}`;

/** The pay-in-advance fees of an invoice to re-derive, per subscription, charge, charges period and charge version. */
export function advanceAsks(invoice: Pick<Invoice, "fees">): AdvanceFeesAsk[] {
  const asks = new Map<string, AdvanceFeesAsk>();
  for (const fee of invoice.fees) {
    if (!isAdvanceFee(fee)) continue;
    const key = advanceKey(fee);
    let ask = asks.get(key);
    if (!ask) {
      asks.set(
        key,
        (ask = {
          key,
          externalSubscriptionId: fee.external_subscription_id,
          subscriptionId: fee.subscription_id,
          chargeId: fee.charge_id!,
          from: new Date(fee.from!),
          to: new Date(fee.to!),
          feeIds: [],
          chargeVersion: fee.charge_version ?? null,
        }),
      );
    }
    ask.feeIds.push(fee.id);
  }
  return [...asks.values()];
}

export interface AuditAmounts {
  units: string;
  events_count: number | null;
  amount_cents: number;
  precise_amount_cents: string;
}

export interface FeeAudit {
  svc_fee_id: string | null;
  fee_type: string;
  /** raw_events: re-derived here; not_derived_from_events: subscription, fixed charge, commitment or a fee without a snapshot */
  derivation: "raw_events" | "not_derived_from_events";
  external_subscription_id: string;
  svc_charge_id: string | null;
  billable_metric_code: string | null;
  charge_model: string | null;
  charge_filter_index: number | null;
  grouped_by: Record<string, string>;
  true_up: boolean;
  from_datetime: string | null;
  to_datetime: string | null;
  billed_through: string | null;
  invoiced: AuditAmounts | null;
  recomputed: AuditAmounts | null;
  /** null when not derived (it does not count against the invoice's match) */
  match: boolean | null;
  reason: string | null;
}

/** An event acknowledged after the invoice's usage was read, as stored (Lago's EventObject with its acknowledgement). */
export type LateEvent = UsageEventData;

export interface ChargeAuditView {
  svc_charge_id: string;
  external_subscription_id: string;
  billable_metric_code: string;
  from_datetime: string;
  to_datetime: string;
  billed_through: string | null;
  raw_events_read: number;
  late_events_count: number;
  late_events: LateEvent[];
}

export interface InvoiceAuditView {
  svc_invoice_id: string;
  number: string;
  status: string;
  currency: string;
  audited_at: string;
  match: boolean;
  mismatches: Array<{ svc_fee_id: string | null; svc_charge_id: string | null; reason: string }>;
  fees_amount_cents: { invoiced: number; recomputed: number };
  late_events_count: number;
  fees: FeeAudit[];
  charges: ChargeAuditView[];
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const sameDecimal = (a: string, b: string) => decimalString(a) === decimalString(b);

const NOT_DERIVED: Record<string, string> = {
  subscription: "subscription fee: priced from the plan's amount and proration, not from events",
  fixed_charge: "fixed charge: priced from its units and proration, not from events",
  commitment: "minimum commitment true-up: priced from the other fees, not from events",
  credit: "credit: a wallet top-up, not from events",
};

function differences(invoiced: AuditAmounts, recomputed: AuditAmounts): string[] {
  const out: string[] = [];
  if (!sameDecimal(invoiced.units, recomputed.units))
    out.push(`units invoiced ${invoiced.units}, recomputed ${recomputed.units}`);
  if (invoiced.events_count !== null && invoiced.events_count !== recomputed.events_count) {
    out.push(`events_count invoiced ${invoiced.events_count}, recomputed ${recomputed.events_count}`);
  }
  if (invoiced.amount_cents !== recomputed.amount_cents)
    out.push(`amount_cents invoiced ${invoiced.amount_cents}, recomputed ${recomputed.amount_cents}`);
  else if (!sameDecimal(invoiced.precise_amount_cents, recomputed.precise_amount_cents)) {
    out.push(
      `precise_amount_cents invoiced ${invoiced.precise_amount_cents}, recomputed ${recomputed.precise_amount_cents}`,
    );
  }
  return out;
}

const amountsOf = (f: {
  units: string;
  events_count: number | null;
  amount_cents: number;
  precise_amount_cents: string;
}): AuditAmounts => ({
  units: f.units,
  events_count: f.events_count,
  amount_cents: f.amount_cents,
  precise_amount_cents: f.precise_amount_cents,
});

/**
 * A pay-in-advance fee beside the replay of its charge's stored events: the fee of the same event
 * (same id: organization, event, charge, filter), its units and amount to the precise cent.
 */
function advanceFeeAudit(
  fee: Fee,
  invoiced: AuditAmounts,
  charge: RederivedAdvanceChargeData | undefined,
): Pick<FeeAudit, "derivation" | "recomputed" | "match" | "reason"> {
  if (!charge)
    return {
      derivation: "raw_events",
      recomputed: null,
      match: false,
      reason: "its pay-in-advance charge could not be re-derived",
    };
  if (charge.error)
    return {
      derivation: "raw_events",
      recomputed: null,
      match: false,
      reason: `pay-in-advance fee not re-derived: ${charge.error}`,
    };
  const mine = charge.fees.find((r) => r.fee_id === fee.id);
  if (!mine) {
    return {
      derivation: "raw_events",
      recomputed: null,
      match: false,
      reason: `no raw event stored for this charge in ${iso(fee.from)}..${iso(fee.to)} gives this pay-in-advance fee (${charge.events_read} events replayed)`,
    };
  }
  const recomputed: AuditAmounts = {
    units: mine.units,
    events_count: 1,
    amount_cents: mine.amount_cents,
    precise_amount_cents: mine.precise_amount_cents,
  };
  const diff = differences(invoiced, recomputed);
  if ((mine.charge_filter_index ?? null) !== (fee.charge_filter_index ?? null))
    diff.push(`charge_filter_index invoiced ${fee.charge_filter_index}, recomputed ${mine.charge_filter_index}`);
  const event = `event ${mine.event_transaction_id} of ${mine.event_timestamp}, the charge's event #${mine.replay_position} of the period in stored order`;
  return {
    derivation: "raw_events",
    recomputed,
    match: diff.length === 0,
    reason: diff.length === 0 ? null : `pay-in-advance fee of ${event}: ${diff.join("; ")}`,
  };
}

/**
 * Every fee of the invoice beside its re-derivation (`rederived`: per snapshot key, what the usage
 * service gave), and the verdict: the invoice matches when every re-derived fee equals its
 * invoiced fee (units, events count, amount to the precise cent) and the raw events price no fee
 * the invoice lacks; a pay-in-advance fee (`advance`: per subscription, charge and period, what
 * the replay of the stored events gave) equals the fee the replay gives its event. Fees not
 * derived from events are listed, with why, and do not count.
 */
export function compareInvoice(
  invoice: Invoice,
  rederived: ReadonlyMap<string, RederivedChargeData>,
  auditedAt: Date,
  advance: ReadonlyMap<string, RederivedAdvanceChargeData> = new Map(),
): InvoiceAuditView {
  const fees: FeeAudit[] = [];
  const seen = new Map<string, Set<string>>();
  const charges: ChargeAuditView[] = [];
  const heads = new Map<string, { fee: Fee; head: SnapshotHead }>();
  for (const fee of invoice.fees) {
    const base = {
      svc_fee_id: fee.id,
      fee_type: fee.fee_type,
      external_subscription_id: fee.external_subscription_id,
      svc_charge_id: fee.charge_id,
      billable_metric_code: fee.billable_metric_code,
      charge_model: fee.charge_model,
      charge_filter_index: fee.charge_filter_index,
      grouped_by: fee.item.grouped_by ?? {},
      true_up: fee.true_up,
      from_datetime: iso(fee.from),
      to_datetime: iso(fee.to),
      billed_through: iso(fee.usage_read_at ?? null),
      invoiced: amountsOf(fee),
    };
    if (isAdvanceFee(fee)) {
      fees.push({ ...base, ...advanceFeeAudit(fee, base.invoiced, advance.get(advanceKey(fee))) });
      continue;
    }
    const head = fee.fee_type === "charge" && fee.charge_snapshot ? storedChargeSnapshot(fee.charge_snapshot) : null;
    if (!head) {
      const reason =
        NOT_DERIVED[fee.fee_type] ??
        "charge fee without a stored charge snapshot (priced before audits): not re-derived";
      fees.push({ ...base, derivation: "not_derived_from_events", recomputed: null, match: null, reason });
      continue;
    }
    const key = snapshotKey(fee, head);
    heads.set(key, { fee, head });
    const charge = rederived.get(key);
    if (!seen.has(key)) seen.set(key, new Set());
    if (!charge) {
      fees.push({
        ...base,
        derivation: "raw_events",
        recomputed: null,
        match: false,
        reason: "its charge snapshot could not be re-derived",
      });
      continue;
    }
    const mine = charge.fees.find((r) => feeKey(r) === feeKey({ ...fee, grouped_by: fee.item.grouped_by ?? {} }));
    if (!mine) {
      fees.push({
        ...base,
        derivation: "raw_events",
        recomputed: null,
        match: false,
        reason: "the raw events under this charge snapshot price no such fee",
      });
      continue;
    }
    seen.get(key)!.add(feeKey(mine));
    const recomputed = amountsOf(mine);
    const diff = differences(base.invoiced, recomputed);
    fees.push({
      ...base,
      derivation: "raw_events",
      recomputed,
      match: diff.length === 0,
      reason: diff.length === 0 ? null : diff.join("; "),
    });
  }
  // fees the raw events price that the invoice lacks (an invoice keeps a charge fee only when persistable)
  for (const [key, { fee, head }] of heads) {
    const charge = rederived.get(key);
    if (!charge) continue;
    for (const r of charge.fees) {
      if (seen.get(key)!.has(feeKey(r)) || !r.persistable) continue;
      fees.push({
        svc_fee_id: null,
        fee_type: "charge",
        derivation: "raw_events",
        external_subscription_id: fee.external_subscription_id,
        svc_charge_id: head.chargeId,
        billable_metric_code: head.billableMetricCode,
        charge_model: fee.charge_model,
        charge_filter_index: r.charge_filter_index,
        grouped_by: Object.fromEntries(Object.entries(r.grouped_by).map(([k, v]) => [k, v ?? ""])),
        true_up: r.true_up,
        from_datetime: iso(fee.from),
        to_datetime: iso(fee.to),
        billed_through: iso(fee.usage_read_at ?? null),
        invoiced: null,
        recomputed: amountsOf(r),
        match: false,
        reason: `not on the invoice: the raw events price ${r.units} units, ${r.amount_cents} cents`,
      });
    }
    charges.push({
      svc_charge_id: head.chargeId,
      external_subscription_id: fee.external_subscription_id,
      billable_metric_code: head.billableMetricCode,
      from_datetime: head.from,
      to_datetime: head.to,
      billed_through: iso(fee.usage_read_at ?? null),
      raw_events_read: charge.events_read,
      late_events_count: charge.late_events_count,
      late_events: charge.late_events,
    });
  }
  for (const ask of advanceAsks(invoice)) {
    const charge = advance.get(ask.key);
    const fee = invoice.fees.find((f) => f.id === ask.feeIds[0])!;
    charges.push({
      svc_charge_id: ask.chargeId,
      external_subscription_id: ask.externalSubscriptionId,
      billable_metric_code: charge?.billable_metric_code || fee.billable_metric_code || "",
      from_datetime: ask.from.toISOString(),
      to_datetime: ask.to.toISOString(),
      billed_through: null,
      raw_events_read: charge?.events_read ?? 0,
      late_events_count: 0,
      late_events: [],
    });
  }
  const derived = fees.filter((f) => f.derivation === "raw_events");
  const mismatches = derived
    .filter((f) => f.match === false)
    .map((f) => ({ svc_fee_id: f.svc_fee_id, svc_charge_id: f.svc_charge_id, reason: f.reason! }));
  return {
    svc_invoice_id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    currency: invoice.currency,
    audited_at: auditedAt.toISOString(),
    match: mismatches.length === 0,
    mismatches,
    fees_amount_cents: {
      invoiced: sumCents(derived.map((f) => f.invoiced?.amount_cents ?? 0)),
      recomputed: sumCents(derived.map((f) => f.recomputed?.amount_cents ?? 0)),
    },
    late_events_count: charges.reduce((n, c) => n + c.late_events_count, 0),
    fees,
    charges,
  };
}
