import { randomUUID } from "node:crypto";
import { derivedUuid } from "@billing/codes";
import { chooseSections, NO_SECTIONS, type SectionChoice } from "@billing/contracts";
import type { ErrorDetails } from "@billing/errors";
import { creditsViolations } from "./wallet-rules";
import type { TransactionKind, Wallet, WalletTransaction } from "./wallet";

export interface CreditsRequest {
  paid_credits?: string;
  granted_credits?: string;
  voided_credits?: string;
  name?: string | null;
  metadata?: Array<{ key: string; value: string | null }>;
  invoice_requires_successful_payment?: boolean;
  ignore_paid_top_up_limits?: boolean;
  /** a recurring rule's firing: its source, and ids derived from the firing so a retry makes the same transactions */
  source?: WalletTransaction["source"];
  idOf?: (kind: TransactionKind) => string;
  /** the sections the invoices of these credits show (a request's choice, or the firing rule's) */
  sections?: SectionChoice;
}

const KINDS = [
  ["paid_credits", "purchased", "inbound"],
  ["granted_credits", "granted", "inbound"],
  ["voided_credits", "voided", "outbound"],
] as const;

/**
 * The transactions a request makes, in Lago's order (paid, granted, voided), or every field's
 * problem. Credits of 0 make no transaction; paid credits wait for their payment (pending),
 * granted and voided ones are applied at once. Voiding more than the balance is refused here
 * (the ledger refuses it again if the balance moved meanwhile).
 */
export function transactionsOf(
  wallet: Wallet,
  request: CreditsRequest,
  now: Date,
): { transactions: WalletTransaction[]; errors: ErrorDetails } {
  const errors: ErrorDetails = {};
  const transactions: WalletTransaction[] = [];
  for (const [field, kind, type] of KINDS) {
    const credits = request[field];
    if (credits === undefined || credits === null) continue;
    const { conversion, errors: problems } = creditsViolations(field, credits, wallet, {
      ignoreLimits: request.ignore_paid_top_up_limits,
    });
    if (problems.length) {
      errors[field] = problems;
      continue;
    }
    if (!conversion || conversion.amount_cents === 0) continue;
    if (type === "outbound" && conversion.amount_cents > wallet.balance_cents) {
      errors[field] = ["insufficient_credits"];
      continue;
    }
    const tx = transaction(wallet, kind as TransactionKind, type, conversion.amount_cents, request, now);
    const id = request.idOf?.(kind as TransactionKind) ?? tx.id;
    const sections = request.sections ? chooseSections(NO_SECTIONS, request.sections, id, now) : {};
    transactions.push({ ...tx, id, source: request.source ?? tx.source, ...sections });
  }
  return { transactions, errors };
}

function transaction(
  wallet: Wallet,
  kind: TransactionKind,
  type: "inbound" | "outbound",
  amountCents: number,
  request: CreditsRequest,
  now: Date,
): WalletTransaction {
  return {
    id: randomUUID(),
    organization_id: wallet.organization_id,
    wallet_id: wallet.id,
    status: "pending",
    source: "manual",
    transaction_status: kind,
    transaction_type: type,
    amount_cents: amountCents,
    void_remaining: false,
    invoice_id: null,
    invoice_requires_successful_payment:
      request.invoice_requires_successful_payment ?? wallet.invoice_requires_successful_payment,
    name: request.name ?? null,
    metadata: request.metadata ?? [],
    sequence: null,
    failure: null,
    created_at: now,
    settled_at: null,
    failed_at: null,
  };
}

/** A wallet's termination as a movement: it voids what is left when it is applied, and ends the wallet. Its id makes it once per wallet. */
export function terminationOf(wallet: Wallet, now: Date): WalletTransaction {
  return {
    ...transaction(wallet, "voided", "outbound", 0, {}, now),
    id: derivedUuid(`termination of ${wallet.id}`),
    void_remaining: true,
  };
}

/** What an invoice takes from a wallet (its id derived from the invoice and the wallet). */
export function consumptionOf(
  wallet: Wallet,
  id: string,
  invoiceId: string,
  amountCents: number,
  now: Date,
): WalletTransaction {
  return {
    ...transaction(wallet, "invoiced", "outbound", amountCents, {}, now),
    id,
    invoice_id: invoiceId,
    invoice_requires_successful_payment: false,
  };
}

/** Whether the ledger applies it now (paid credits wait for their invoice's payment). */
export const appliedAtOnce = (tx: WalletTransaction) => tx.transaction_status !== "purchased";
