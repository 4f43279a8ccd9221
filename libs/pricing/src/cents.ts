/**
 * Whole cents added up (payments, what is due, ledger movements): exact as long as the total is
 * a safe integer, refused (RangeError, `what` out of range) past it.
 */
export function sumCents(values: Iterable<number>, what = "cents total"): number {
  let total = 0;
  for (const value of values) total += value;
  if (!Number.isSafeInteger(total)) throw new RangeError(`${what} out of range`);
  return total;
}

/** What is left to pay on `total` once `paid` was received (cents), never below zero. */
export const centsDue = (total: number, paid: number): number => Math.max(0, total - paid);

/**
 * A payment of `amount` cents against `due` cents still owed: the part the invoice takes, and the
 * part beyond it (an overpayment, to be given back).
 */
export function splitPayment(amount: number, due: number): { applied: number; overpaid: number } {
  const applied = Math.min(amount, Math.max(0, due));
  return { applied, overpaid: amount - applied };
}

/**
 * A wallet's ongoing balance (cents): its balance less its share of the customer's ongoing usage.
 * Negative when usage has outrun the balance (Lago shows it so).
 */
export const ongoingBalanceCents = (balance: number, ongoingUsage: number): number =>
  sumCents([balance, -ongoingUsage], "ongoing balance");
