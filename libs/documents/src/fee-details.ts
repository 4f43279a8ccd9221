import type { DocumentFormat } from "./format";
import type { Labels } from "./labels";
import type { InvoiceDocumentFee } from "./views";

const str = (v: unknown): string | null => (typeof v === "string" || typeof v === "number" ? String(v) : null);
const nonZero = (v: string | null) => v !== null && !/^-?0*(\.0*)?$/.test(v);

/** "region: eu, us" and "country: fr": the filter and the group a fee bills. */
export function filterLines(
  fee: Pick<InvoiceDocumentFee, "filters" | "filter_display_name" | "grouped_by">,
  l: Labels,
): string[] {
  const lines: string[] = [];
  const filters = Object.entries(fee.filters ?? {});
  if (fee.filter_display_name) lines.push(`${l.filters}: ${fee.filter_display_name}`);
  else if (filters.length > 0)
    lines.push(`${l.filters}: ${filters.map(([k, v]) => `${k}: ${v.join(", ")}`).join(" · ")}`);
  const groups = Object.entries(fee.grouped_by ?? {});
  if (groups.length > 0) lines.push(`${l.group}: ${groups.map(([k, v]) => `${k}: ${v}`).join(" · ")}`);
  return lines;
}

/**
 * The pricing detail of a charge fee from its amount_details, one line per range, package or part:
 * graduated (units per range × price + flat), volume (the range's price and flat), package (free
 * and paid units, price per package), percentage and graduated percentage (rate, fixed fees).
 */
export function breakdownLines(
  fee: Pick<InvoiceDocumentFee, "charge_model" | "amount_details">,
  l: Labels,
  f: DocumentFormat,
): string[] {
  const d = fee.amount_details ?? {};
  const lines: string[] = [];
  const ranges = (key: string) => (Array.isArray(d[key]) ? (d[key] as Array<Record<string, unknown>>) : []);
  switch (fee.charge_model) {
    case "graduated":
      for (const r of ranges("graduated_ranges")) {
        const to = str(r.to_value);
        const parts = [
          `${l.range(f.quantity(str(r.from_value) ?? "0"), to === null ? null : f.quantity(to))}: ${f.quantity(str(r.units) ?? "0")} × ${f.unitPrice(str(r.per_unit_amount) ?? "0")}`,
        ];
        if (nonZero(str(r.flat_unit_amount))) parts.push(`+ ${f.unitPrice(str(r.flat_unit_amount)!)} ${l.flat_fee}`);
        parts.push(`= ${f.unitPrice(str(r.total_with_flat_amount) ?? "0")}`);
        lines.push(parts.join(" "));
      }
      break;
    case "graduated_percentage":
      for (const r of ranges("graduated_percentage_ranges")) {
        const to = str(r.to_value);
        const parts = [
          `${l.range(f.quantity(str(r.from_value) ?? "0"), to === null ? null : f.quantity(to))}: ${f.quantity(str(r.units) ?? "0")} × ${f.quantity(str(r.rate) ?? "0")} %`,
        ];
        if (nonZero(str(r.flat_unit_amount))) parts.push(`+ ${f.unitPrice(str(r.flat_unit_amount)!)} ${l.flat_fee}`);
        parts.push(`= ${f.unitPrice(str(r.total_with_flat_amount) ?? "0")}`);
        lines.push(parts.join(" "));
      }
      break;
    case "volume": {
      const perUnit = str(d.per_unit_amount);
      if (perUnit !== null)
        lines.push(
          `${f.unitPrice(perUnit)} × ${l.units.toLowerCase()} = ${f.unitPrice(str(d.per_unit_total_amount) ?? "0")}`,
        );
      if (nonZero(str(d.flat_unit_amount))) lines.push(`+ ${f.unitPrice(str(d.flat_unit_amount)!)} ${l.flat_fee}`);
      break;
    }
    case "package": {
      if (nonZero(str(d.free_units))) lines.push(`${l.free_units}: ${f.quantity(str(d.free_units)!)}`);
      if (str(d.paid_units) !== null) lines.push(`${l.paid_units}: ${f.quantity(str(d.paid_units)!)}`);
      const size = str(d.per_package_size);
      if (size !== null && str(d.per_package_unit_amount) !== null)
        lines.push(`${f.unitPrice(str(d.per_package_unit_amount)!)} ${l.package_of(f.quantity(size))}`);
      break;
    }
    case "percentage": {
      if (nonZero(str(d.free_units))) lines.push(`${l.free_units}: ${f.quantity(str(d.free_units)!)}`);
      if (str(d.rate) !== null)
        lines.push(
          `${l.rate}: ${f.quantity(str(d.rate)!)} % × ${f.quantity(str(d.paid_units) ?? "0")} = ${f.unitPrice(str(d.per_unit_total_amount) ?? "0")}`,
        );
      if (nonZero(str(d.fixed_fee_total_amount)))
        lines.push(
          `${l.fixed_fee}: ${str(d.paid_events) ?? "0"} × ${f.unitPrice(str(d.fixed_fee_unit_amount) ?? "0")} = ${f.unitPrice(str(d.fixed_fee_total_amount)!)}`,
        );
      if (nonZero(str(d.min_max_adjustment_total_amount)))
        lines.push(`${l.min_max_adjustment}: ${f.unitPrice(str(d.min_max_adjustment_total_amount)!)}`);
      break;
    }
    default:
      break;
  }
  return lines;
}
