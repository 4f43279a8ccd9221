import { type Decimal, ZERO, minDecimal } from "../decimal";
import { instantMs } from "../periods/timezone";
import type { WalletInput, WorkingFee } from "./types";

export interface WalletConsumption {
  wallet_id: string;
  amount_cents: number;
}

interface Bucket {
  feeType: string;
  metric: string | null;
  remaining: Decimal;
}

/** Fees grouped by (fee type, billable metric), capped at sub-total after coupons + precise taxes − credit notes. */
function buckets(fees: readonly WorkingFee[], totalCents: number): Bucket[] {
  const map = new Map<string, Bucket>();
  for (const fee of fees) {
    const subTotal = fee.amountCents.minus(fee.preciseCoupons);
    if (subTotal.isZero()) continue;
    const cap = subTotal.plus(fee.taxesPreciseAmountCents).minus(fee.preciseCreditNotes);
    if (cap.lte(0)) continue;
    const metric = fee.input.fee_type === "charge" ? (fee.input.billable_metric_code ?? null) : null;
    const key = `${fee.input.fee_type}|${metric}`;
    const bucket = map.get(key) ?? { feeType: fee.input.fee_type, metric, remaining: ZERO };
    bucket.remaining = bucket.remaining.plus(cap);
    map.set(key, bucket);
  }
  const ordered = [...map.values()].sort((a, b) => b.remaining.cmp(a.remaining));
  // A rounding gap of at most one cent per bucket goes to the largest bucket.
  const gap = ordered.reduce((s, b) => s.minus(b.remaining), ZERO).plus(totalCents);
  if (ordered.length > 0 && gap.gt(0) && gap.lte(ordered.length))
    ordered[0]!.remaining = ordered[0]!.remaining.plus(gap);
  return ordered;
}

function applies(wallet: WalletInput, bucket: Bucket): boolean {
  const types = wallet.applies_to?.fee_types ?? [];
  const metrics = wallet.applies_to?.billable_metric_codes ?? [];
  if (types.length === 0 && metrics.length === 0) return true;
  return (
    types.includes(bucket.feeType) ||
    (bucket.feeType === "charge" && bucket.metric !== null && metrics.includes(bucket.metric))
  );
}

/** Wallets by priority (1 first, default 50), then creation; each takes what it may from each bucket. */
export function allocatePrepaidCredits(
  fees: readonly WorkingFee[],
  wallets: readonly WalletInput[],
  totalCents: number,
): WalletConsumption[] {
  const time = (w: WalletInput) => (w.created_at == null ? 0 : instantMs(w.created_at));
  const ordered = wallets
    .map((w, i) => ({ w, i }))
    .filter(({ w }) => w.balance_cents > 0)
    .sort((a, b) => (a.w.priority ?? 50) - (b.w.priority ?? 50) || time(a.w) - time(b.w) || a.i - b.i);
  const remainingBuckets = buckets(fees, totalCents);
  let invoiceRemaining: Decimal = ZERO.plus(totalCents);
  const consumptions: WalletConsumption[] = [];
  for (const { w } of ordered) {
    let used = ZERO;
    for (const bucket of remainingBuckets) {
      if (bucket.remaining.lte(0) || !applies(w, bucket)) continue;
      const take = minDecimal(minDecimal(bucket.remaining, ZERO.plus(w.balance_cents).minus(used)), invoiceRemaining);
      if (take.lte(0)) continue;
      bucket.remaining = bucket.remaining.minus(take);
      invoiceRemaining = invoiceRemaining.minus(take);
      used = used.plus(take);
    }
    const cents = used.round().toNumber();
    if (cents > 0) consumptions.push({ wallet_id: w.id, amount_cents: cents });
  }
  return consumptions;
}
