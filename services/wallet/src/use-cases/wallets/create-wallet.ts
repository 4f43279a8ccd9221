import { randomUUID } from "node:crypto";
import { frozenTime } from "@billing/clock";
import { chooseSections, NO_SECTIONS } from "@billing/contracts";
import { AppError, type ErrorDetails } from "@billing/errors";
import type { WalletInput } from "../../domain/wallet-input";
import { rulesAfter, withRuleSections } from "../../domain/recurring-rules";
import { PRIORITY, walletTermsViolations } from "../../domain/wallet-rules";
import { transactionsOf } from "../../domain/wallet-transactions";
import type { Wallet } from "../../domain/wallet";
import type { WalletDeps } from "../deps";
import { applyNew } from "../transactions/apply-new";
import { resolveSectionChoice } from "../sections";

/**
 * POST /wallets, in Lago's order: unknown customer (404), then every field's problem at once
 * (422), a currency other than the customer's (422 currencies_does_not_match). A customer without
 * a currency takes the wallet's. Paid and granted credits at creation become its first
 * transactions (granted ones settle at once; paid ones wait for their payment).
 */
export async function createWallet(
  deps: WalletDeps,
  organizationId: string,
  input: WalletInput,
  requestId?: string,
): Promise<Wallet> {
  const customer = await deps.customers.find(organizationId, input.external_customer_id ?? "", requestId);
  if (!customer) throw AppError.notFound("customer");
  const now = deps.clock.now();
  const id = randomUUID();
  const ruleInputs = input.recurring_transaction_rules ?? [];
  const [sections, ruleSections] = await Promise.all([
    resolveSectionChoice(deps, organizationId, input.invoice_custom_section),
    Promise.all(ruleInputs.map((r) => resolveSectionChoice(deps, organizationId, r.invoice_custom_section))),
  ]);
  const wallet: Wallet = {
    id,
    organization_id: organizationId,
    customer_id: customer.id,
    external_customer_id: customer.external_id,
    billing_entity_code: input.billing_entity_code ?? customer.billing_entity_code,
    status: "active",
    currency: (input.currency ?? "").toUpperCase(),
    name: input.name ?? null,
    code: input.code ?? null,
    priority: input.priority ?? PRIORITY.default,
    rate_amount: (input.rate_amount ?? "").trim(),
    balance_cents: 0,
    consumed_amount_cents: 0,
    ongoing_usage_cents: 0,
    invoice_requires_successful_payment: input.invoice_requires_successful_payment ?? false,
    paid_top_up_min_amount_cents: input.paid_top_up_min_amount_cents ?? null,
    paid_top_up_max_amount_cents: input.paid_top_up_max_amount_cents ?? null,
    applies_to: input.applies_to ?? { fee_types: [], billable_metric_codes: [] },
    metadata: input.metadata ?? {},
    purchase_order_number: input.purchase_order_number ?? null,
    expiration_at: input.expiration_at ?? null,
    created_at: now,
    updated_at: now,
    terminated_at: null,
    last_balance_sync_at: null,
    last_consumed_credit_at: null,
    ledger: { seq: 0, block: [] },
    sandbox: frozenTime() !== undefined,
    recurring_rules: [],
    ...chooseSections(NO_SECTIONS, sections ?? {}, id, now),
  };
  const errors: ErrorDetails = walletTermsViolations(wallet, now);
  const rules = rulesAfter([], ruleInputs, now, now);
  Object.assign(errors, rules.errors);
  wallet.recurring_rules = withRuleSections(rules.rules, ruleSections, now);
  const { transactions, errors: creditErrors } = errors.rate_amount
    ? { transactions: [], errors: {} }
    : transactionsOf(
        wallet,
        {
          paid_credits: input.paid_credits,
          granted_credits: input.granted_credits,
          name: input.transaction_name,
          metadata: input.transaction_metadata,
          ignore_paid_top_up_limits: input.ignore_paid_top_up_limits_on_creation,
        },
        now,
      );
  Object.assign(errors, creditErrors);
  if (Object.keys(errors).length) throw AppError.validation(errors);
  if (customer.currency && customer.currency !== wallet.currency)
    throw AppError.validation({ currency: ["currencies_does_not_match"] });
  if (!customer.currency)
    await deps.customers.setCurrency(organizationId, customer.external_id, wallet.currency, requestId);
  if ((await deps.wallets.insert(wallet)) === "duplicate") throw AppError.validation({ code: ["value_already_exist"] });
  await applyNew(deps, wallet, transactions);
  return (await deps.wallets.find(organizationId, wallet.id))!;
}
