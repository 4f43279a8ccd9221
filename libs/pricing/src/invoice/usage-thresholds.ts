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

export interface UsageThresholdProgress<T extends UsageThreshold = UsageThreshold> {
  threshold: T;
  /** the lifetime usage amount this step stands at (a recurring threshold appears once per step) */
  amount_cents: number;
  /** 1 once reached; between 0 and 1 for the next one; 0 beyond */
  completion_ratio: number;
  reached: boolean;
}

/**
 * Where a subscription's lifetime usage stands against its thresholds (Lago's LifetimeUsage
 * `usage_thresholds`): the fixed ones passed, then the next one with its completion ratio and the
 * others at 0, then the recurring one's first step; once every fixed threshold is passed, each
 * recurring step passed and the next one in progress.
 */
export function usageThresholdsProgress<T extends UsageThreshold>(
  thresholds: readonly T[],
  totalCents: number,
): UsageThresholdProgress<T>[] {
  const fixed = thresholds.filter((t) => !t.recurring).sort((a, b) => a.amount_cents - b.amount_cents);
  const recurring = thresholds.find((t) => t.recurring && t.amount_cents > 0);
  const passed = fixed.filter((t) => t.amount_cents <= totalCents);
  const ahead = fixed.filter((t) => t.amount_cents > totalCents);
  const out: UsageThresholdProgress<T>[] = passed.map((t) => ({
    threshold: t,
    amount_cents: t.amount_cents,
    completion_ratio: 1,
    reached: true,
  }));
  const lastPassed = passed[passed.length - 1]?.amount_cents ?? 0;
  if (ahead.length > 0) {
    const [next, ...rest] = ahead;
    out.push({
      threshold: next!,
      amount_cents: next!.amount_cents,
      completion_ratio: (totalCents - lastPassed) / (next!.amount_cents - lastPassed),
      reached: false,
    });
    for (const t of rest) out.push({ threshold: t, amount_cents: t.amount_cents, completion_ratio: 0, reached: false });
    const largest = fixed[fixed.length - 1]!.amount_cents;
    if (recurring)
      out.push({
        threshold: recurring,
        amount_cents: largest + recurring.amount_cents,
        completion_ratio: 0,
        reached: false,
      });
    return out;
  }
  if (!recurring) return out;
  const steps = Math.floor((totalCents - lastPassed) / recurring.amount_cents);
  for (let i = 1; i <= steps; i++)
    out.push({
      threshold: recurring,
      amount_cents: lastPassed + i * recurring.amount_cents,
      completion_ratio: 1,
      reached: true,
    });
  const remainder = (totalCents - lastPassed) % recurring.amount_cents;
  out.push({
    threshold: recurring,
    amount_cents: lastPassed + (steps + 1) * recurring.amount_cents,
    completion_ratio: remainder / recurring.amount_cents,
    reached: false,
  });
  return out;
}
