import { chargePropertiesFromProto, chargePropertiesToProto } from "./charge-properties";
import type * as I from "./generated/invoicing-messages";

/**
 * What an invoice's fee was priced with (invoicing's Fee.properties: the FeeProperties message) ⇄
 * the one object invoicing keeps and the API shows (`properties`, not Lago's): a charge's or fixed
 * charge's properties (a fixed charge's with its units), a subscription fee's plan amount and days,
 * a commitment true-up's amounts, a one-off fee's period.
 */

const text = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
const num = (v: unknown) => (v === null || v === undefined || v === "" ? undefined : Number(v));

/** A fee's properties → the message (`feeType`: which kind of fee it explains). */
export function feePropertiesToProto(
  feeType: string,
  properties: Record<string, unknown> | null | undefined,
): I.FeeProperties {
  const p = properties ?? {};
  const priced = feeType === "charge" || feeType === "fixed_charge";
  return {
    charge: priced ? chargePropertiesToProto(p) : null,
    units: feeType === "fixed_charge" ? text(p.units) : undefined,
    amount_cents: num(p.amount_cents),
    days: num(p.days),
    period_days: num(p.period_days),
    commitment_amount_cents: num(p.commitment_amount_cents),
    fees_amount_cents: num(p.fees_amount_cents),
    from_datetime: text(p.from_datetime),
    to_datetime: text(p.to_datetime),
    timestamp: text(p.timestamp),
  };
}

/** The message → the fee's properties as one object: the fields present. */
export function feePropertiesFromProto(m: I.FeeProperties__Output | null | undefined): Record<string, unknown> {
  if (!m) return {};
  const own: Record<string, unknown> = {
    units: m.units,
    amount_cents: m.amount_cents,
    days: m.days,
    period_days: m.period_days,
    commitment_amount_cents: m.commitment_amount_cents,
    fees_amount_cents: m.fees_amount_cents,
    from_datetime: m.from_datetime,
    to_datetime: m.to_datetime,
    timestamp: m.timestamp,
  };
  return {
    ...(m.charge ? chargePropertiesFromProto(m.charge) : {}),
    ...Object.fromEntries(Object.entries(own).filter(([, v]) => v !== undefined)),
  };
}
