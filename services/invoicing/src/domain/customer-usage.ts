import type { ChargeViewData } from "@billing/contracts";
import { Decimal, decimalString, toDecimal } from "@billing/pricing";
import type { Fee } from "./invoice";

export interface UsageFigures {
  units: string;
  total_aggregated_units: string;
  events_count: number;
  amount_cents: number;
}

export interface FilterUsage extends UsageFigures {
  invoice_display_name: string | null;
  /** the filter's values; {} for the usage matching none of the charge's filters */
  values: Record<string, string[]>;
}

export interface GroupUsage extends UsageFigures {
  grouped_by: Record<string, string>;
  filters: FilterUsage[];
}

export interface ChargeUsageView extends UsageFigures {
  charge: { id: string; charge_model: string; invoice_display_name: string | null };
  metric: { id: string; name: string; code: string; aggregation_type: string };
  filters: FilterUsage[];
  grouped: GroupUsage[];
}

/** Lago's CustomerUsageObject as this service builds it. */
export interface CustomerUsageView {
  from: Date;
  to: Date;
  issuing_date: string;
  invoice_id: string | null;
  currency: string;
  amount_cents: number;
  taxes_amount_cents: number;
  total_amount_cents: number;
  charges: ChargeUsageView[];
}

function figures(fees: readonly Fee[]): UsageFigures {
  return {
    units: decimalString(fees.reduce((sum, f) => sum.plus(toDecimal(f.units)), new Decimal(0))),
    total_aggregated_units: decimalString(
      fees.reduce((sum, f) => sum.plus(toDecimal(f.total_aggregated_units)), new Decimal(0)),
    ),
    events_count: fees.reduce((n, f) => n + (f.events_count ?? 0), 0),
    amount_cents: fees.reduce((n, f) => n + f.amount_cents, 0),
  };
}

const groupKey = (f: Fee) => JSON.stringify(f.item.grouped_by);

function filterUsage(fees: readonly Fee[], charge: ChargeViewData | undefined): FilterUsage[] {
  if (!charge || charge.filters.length === 0) return [];
  const byIndex = new Map<number, Fee[]>();
  for (const f of fees)
    byIndex.set(f.charge_filter_index ?? -1, [...(byIndex.get(f.charge_filter_index ?? -1) ?? []), f]);
  return [...byIndex.entries()].map(([index, list]) => ({
    ...figures(list),
    invoice_display_name: index < 0 ? null : (charge.filters[index]?.invoice_display_name ?? null),
    values: index < 0 ? {} : (charge.filters[index]?.values ?? {}),
  }));
}

/**
 * The usage of a period, charge by charge (Lago's charges_usage): each charge's figures, split by
 * filter and by pricing group when it has them, from the fees priced for that period (the usage
 * service's for current usage, an invoice's for past usage). Only charge fees count; a
 * min_amount true-up is not usage. Pure.
 */
export function customerUsage(input: {
  from: Date;
  to: Date;
  issuing_date: string;
  invoice_id: string | null;
  currency: string;
  fees: readonly Fee[];
  taxes_amount_cents: number;
  charges: readonly ChargeViewData[];
}): CustomerUsageView {
  const usage = input.fees.filter((f) => f.fee_type === "charge" && !f.true_up && f.charge_id);
  const byCharge = new Map<string, Fee[]>();
  for (const f of usage) byCharge.set(f.charge_id!, [...(byCharge.get(f.charge_id!) ?? []), f]);
  const amount = usage.reduce((n, f) => n + f.amount_cents, 0);
  return {
    from: input.from,
    to: input.to,
    issuing_date: input.issuing_date,
    invoice_id: input.invoice_id,
    currency: input.currency,
    amount_cents: amount,
    taxes_amount_cents: input.taxes_amount_cents,
    total_amount_cents: amount + input.taxes_amount_cents,
    charges: [...byCharge.entries()].map(([chargeId, fees]) => {
      const first = fees[0]!;
      const charge = input.charges.find((c) => c.svc_id === chargeId);
      const groups = new Map<string, Fee[]>();
      for (const f of fees)
        if (Object.keys(f.item.grouped_by).length > 0) groups.set(groupKey(f), [...(groups.get(groupKey(f)) ?? []), f]);
      return {
        ...figures(fees),
        charge: {
          id: chargeId,
          charge_model: first.charge_model ?? charge?.charge_model ?? "standard",
          invoice_display_name: charge?.invoice_display_name ?? null,
        },
        metric: {
          id: first.item.item_id,
          name: first.item.name,
          code: first.item.code,
          aggregation_type: first.aggregation_type ?? "",
        },
        filters: groups.size > 0 ? [] : filterUsage(fees, charge),
        grouped: [...groups.values()].map((list) => ({
          ...figures(list),
          grouped_by: list[0]!.item.grouped_by,
          filters: filterUsage(list, charge),
        })),
      };
    }),
  };
}
