import { derivedUuid } from "@billing/bus";
import {
  centsToCredits,
  creditsToCents,
  ongoingBalanceCents,
  targetTopUpCredits,
  thresholdTopUpPaidCredits,
} from "@billing/pricing";
import { ruleSections } from "../../domain/recurring-rules";
import { transactionsOf, type CreditsRequest } from "../../domain/wallet-transactions";
import type { Wallet } from "../../domain/wallet";
import type { WalletDeps } from "../deps";
import { applyNew } from "../transactions/apply-new";

/**
 * A wallet's threshold rule fires when its ongoing balance, with the purchases already on their
 * way, has fallen to the threshold (billing-rules §6): fixed paid credits multiplied so the balance
 * ends strictly above the threshold (capped by the wallet's max top-up unless the rule ignores
 * limits), granted credits as set; or, method target, what reaches the target. The firing's ids
 * derive from the rule and the wallet's state (its ledger and ongoing usage), so the same state
 * fires once whichever replica sees it; a paid top-up then counts as on its way, a granted one
 * lifts the balance. Returns whether it fired.
 */
export async function fireThresholdRule(deps: WalletDeps, wallet: Wallet): Promise<boolean> {
  const rule = wallet.recurring_rules.find((r) => r.status === "active" && r.trigger === "threshold");
  if (!rule || wallet.status !== "active") return false;
  const ongoingCents = ongoingBalanceCents(wallet.balance_cents, wallet.ongoing_usage_cents);
  const pendingCents = await deps.wallets.pendingPurchasedCents(wallet.id);
  const thresholdCents = creditsToCents(
    rule.threshold_credits ?? "0",
    wallet.rate_amount,
    wallet.currency,
  ).amount_cents;
  if (ongoingCents + pendingCents > thresholdCents) return false;
  const ongoing = centsToCredits(ongoingCents, wallet.rate_amount, wallet.currency);
  const pending = centsToCredits(pendingCents, wallet.rate_amount, wallet.currency);
  const maxPaid =
    rule.ignore_paid_top_up_limits || wallet.paid_top_up_max_amount_cents === null
      ? null
      : centsToCredits(wallet.paid_top_up_max_amount_cents, wallet.rate_amount, wallet.currency);
  let credits: Pick<CreditsRequest, "paid_credits" | "granted_credits">;
  if (rule.method === "fixed") {
    const paid =
      Number(rule.paid_credits) > 0
        ? thresholdTopUpPaidCredits({
            threshold_credits: rule.threshold_credits ?? "0",
            ongoing_balance_credits: ongoing,
            paid_credits: rule.paid_credits,
            granted_credits: rule.granted_credits,
            pending_credits: pending,
            max_paid_credits: maxPaid,
          })
        : "0";
    credits = { paid_credits: paid, granted_credits: rule.granted_credits };
  } else {
    const gap = targetTopUpCredits(
      rule.target_ongoing_balance ?? "0",
      centsToCredits(ongoingCents + pendingCents, wallet.rate_amount, wallet.currency),
    );
    credits = rule.grants_target_top_up ? { granted_credits: gap } : { paid_credits: gap };
  }
  const state = `${wallet.ledger.seq}/${wallet.ongoing_usage_cents}/${pendingCents}`;
  const request: CreditsRequest = {
    ...credits,
    name: rule.transaction_name,
    metadata: rule.transaction_metadata,
    invoice_requires_successful_payment: rule.invoice_requires_successful_payment,
    ignore_paid_top_up_limits: true,
    source: "threshold",
    idOf: (kind) => derivedUuid(`rule ${rule.id} threshold at ${state} ${kind}`),
    sections: ruleSections(rule),
  };
  const { transactions, errors } = transactionsOf(wallet, request, deps.clock.now());
  if (Object.keys(errors).length || transactions.length === 0) return false;
  await applyNew(deps, wallet, transactions);
  return true;
}
