import { chooseSections, sectionsOf } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { WalletInput } from "../../domain/wallet-input";
import { rulesAfter, withRuleSections } from "../../domain/recurring-rules";
import { walletTermsViolations } from "../../domain/wallet-rules";
import type { Wallet } from "../../domain/wallet";
import type { WalletChanges } from "../../persistence/wallet-repository";
import type { WalletDeps } from "../deps";
import { resolveSectionChoice } from "../sections";
import { getWallet } from "./get-wallet";

const terminated = () => AppError.validation({ wallet: ["wallet_is_terminated"] });

/**
 * PUT /wallets/{svc_id}: only the fields sent change (metadata merges: a null value removes its
 * key); the result is checked as a whole. A terminated wallet changes no more (422).
 */
export async function updateWallet(
  deps: WalletDeps,
  organizationId: string,
  walletId: string,
  input: WalletInput,
): Promise<Wallet> {
  const wallet = await getWallet(deps, organizationId, walletId);
  if (wallet.status === "terminated") throw terminated();
  const changes: WalletChanges = {};
  for (const key of [
    "name",
    "code",
    "priority",
    "expiration_at",
    "invoice_requires_successful_payment",
    "paid_top_up_min_amount_cents",
    "paid_top_up_max_amount_cents",
    "applies_to",
    "purchase_order_number",
  ] as const) {
    if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
  }
  if (input.metadata !== undefined) {
    const merged = { ...wallet.metadata, ...input.metadata };
    for (const [key, value] of Object.entries(input.metadata)) if (value === null) delete merged[key];
    changes.metadata = merged;
  }
  const now = deps.clock.now();
  const [sections, ruleSections] = await Promise.all([
    resolveSectionChoice(deps, organizationId, input.invoice_custom_section),
    Promise.all(
      (input.recurring_transaction_rules ?? []).map((r) =>
        resolveSectionChoice(deps, organizationId, r.invoice_custom_section),
      ),
    ),
  ]);
  if (sections) Object.assign(changes, chooseSections(sectionsOf(wallet), sections, wallet.id, now));
  const rules =
    input.recurring_transaction_rules === undefined
      ? null
      : rulesAfter(wallet.recurring_rules, input.recurring_transaction_rules, wallet.created_at, now);
  if (rules) changes.recurring_rules = withRuleSections(rules.rules, ruleSections, now);
  const next = { ...wallet, ...changes };
  const errors = { ...walletTermsViolations(next, now), ...(rules?.errors ?? {}) };
  // an expiration already in the past is refused only when it is being set now
  if (changes.expiration_at === undefined) delete errors.expiration_at;
  if (Object.keys(errors).length) throw AppError.validation(errors);
  const result = await deps.wallets.change(wallet, changes, now);
  if (result === "duplicate") throw AppError.validation({ code: ["value_already_exist"] });
  if (result === "terminated") throw terminated();
  return (await deps.wallets.find(organizationId, walletId))!;
}
