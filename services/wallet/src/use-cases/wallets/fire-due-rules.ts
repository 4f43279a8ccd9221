import { derivedUuid } from "@billing/bus";
import { centsToCredits, targetTopUpCredits } from "@billing/pricing";
import { nextDueAfter, ruleSections, type RecurringRule } from "../../domain/recurring-rules";
import { transactionsOf, type CreditsRequest } from "../../domain/wallet-transactions";
import type { Wallet } from "../../domain/wallet";
import type { WalletDeps } from "../deps";
import { applyNew } from "../transactions/apply-new";

/** What a rule gives at one firing: its fixed credits, or what reaches its target (granted or paid, as it says). */
function creditsOf(rule: RecurringRule, wallet: Wallet): Pick<CreditsRequest, "paid_credits" | "granted_credits"> {
  if (rule.method === "fixed") return { paid_credits: rule.paid_credits, granted_credits: rule.granted_credits };
  const balance = centsToCredits(wallet.balance_cents, wallet.rate_amount, wallet.currency);
  const gap = targetTopUpCredits(rule.target_ongoing_balance ?? "0", balance);
  return rule.grants_target_top_up ? { granted_credits: gap } : { paid_credits: gap };
}

/**
 * Recurring rules whose time has come top their wallets up, once per due time (a jump across
 * several intervals fires each in order): the firing's transactions have ids derived from the rule
 * and the due time, so a retry or a second replica makes the same transactions once; then the rule
 * moves to its next time. One sandbox organization's at its test clock's time, or every ordinary
 * organization's on the system clock. Returns how many firings happened.
 */
export async function fireDueRules(deps: WalletDeps, organizationId?: string): Promise<number> {
  let fired = 0;
  for (;;) {
    const now = deps.clock.now();
    const wallets = await deps.wallets.dueRules(now, organizationId);
    for (const listed of wallets) {
      for (let wallet: Wallet | null = listed; wallet && wallet.status === "active";) {
        const rule = wallet.recurring_rules.find(
          (r) => r.status === "active" && r.next_due_at && r.next_due_at.getTime() <= now.getTime(),
        );
        if (!rule) break;
        const due = rule.next_due_at!;
        const request: CreditsRequest = {
          ...creditsOf(rule, wallet),
          name: rule.transaction_name,
          metadata: rule.transaction_metadata,
          invoice_requires_successful_payment: rule.invoice_requires_successful_payment,
          ignore_paid_top_up_limits: rule.ignore_paid_top_up_limits,
          source: "interval",
          idOf: (kind) => derivedUuid(`rule ${rule.id} at ${due.toISOString()} ${kind}`),
          sections: ruleSections(rule),
        };
        // a firing the wallet's limits refuse gives nothing (it is not retried)
        const { transactions, errors } = transactionsOf(wallet, request, due);
        if (Object.keys(errors).length === 0) await applyNew(deps, wallet, transactions);
        await deps.wallets.advanceRule(wallet.id, rule.id, due, nextDueAfter(rule, wallet.created_at, due));
        fired++;
        wallet = await deps.wallets.find(wallet.organization_id, wallet.id);
      }
    }
    if (wallets.length < 500) return fired;
  }
}
