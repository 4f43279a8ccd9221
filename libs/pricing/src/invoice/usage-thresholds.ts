export interface UsageThreshold {
  amount_cents: number;
  recurring?: boolean;
}

export interface ThresholdCheckInput {
  thresholds: readonly UsageThreshold[];
  /** Imported usage from before the subscription was on this platform. */
  historical_usage_cents: number;
  /** Σ charge fee amounts of finalized/draft subscription invoices of this external subscription. */
  invoiced_usage_cents: number;
  /** Current period usage (before taxes). */
  current_usage_cents: number;
  /** Fees amount of the latest progressive invoice of the current period. */
  progressive_billed_cents: number;
}

/**
 * The usage thresholds crossed now (progressive billing). Fixed thresholds are lifetime: once
 * passed they never trigger again; the recurring one triggers each time `invoiced mod R` wraps.
 */
export function crossedUsageThresholds(input: ThresholdCheckInput): UsageThreshold[] {
  const actualCurrent = input.current_usage_cents - input.progressive_billed_cents;
  if (actualCurrent < 0) return [];
  const invoiced = input.historical_usage_cents + input.invoiced_usage_cents + input.progressive_billed_cents;
  const total = invoiced + actualCurrent;
  const fixed = input.thresholds.filter((t) => !t.recurring);
  const recurring = input.thresholds.find((t) => t.recurring && t.amount_cents > 0);
  const largest = fixed.reduce((max, t) => Math.max(max, t.amount_cents), 0);
  if (invoiced < largest) {
    const passed = fixed.filter((t) => invoiced < t.amount_cents && t.amount_cents <= total);
    if (recurring && total - largest >= recurring.amount_cents) passed.push(recurring);
    return passed;
  }
  if (recurring && actualCurrent + (invoiced % recurring.amount_cents) >= recurring.amount_cents) return [recurring];
  return [];
}
