import { centsToCredits, sumCents } from "@billing/pricing";
import { Findings, iso, type BreachRecord, type CheckContext, type CheckOutcome } from "../breach";
import type { LedgerEntryDoc, WalletDoc, WalletTransactionDoc } from "../documents";

/**
 * wallet_ledger — each wallet's stored balance equals its ledger (services/wallet/src/persistence/wallet-ledger.ts):
 *  - every settled transaction carries a sequence, no other one does, and no two share one;
 *  - the sequences applied are exactly 1…ledger.seq (gap-free; the head counts every move);
 *  - a transaction named by the head's last block but not yet marked (a mover stopped between its
 *    two writes; the next move marks it) counts as the head says, and one marked otherwise than
 *    its block entry says is a breach;
 *  - balance_cents = Σ inbound − Σ outbound of the applied transactions (so credits_balance, which
 *    is derived from balance_cents at the wallet's rate, equals the ledger's credits too);
 *  - consumed_amount_cents = the invoices' consumptions replayed in sequence order, less the
 *    voided invoices' credits given back (never below zero), as the ledger decides them;
 *  - no balance is negative, and no transaction names a wallet that does not exist.
 * It cannot tell whether an amount itself was right (a top-up's conversion, an invoice's share):
 * invoice_totals and top_up_settlement compare those with the invoices.
 */
export function checkWalletLedgers(
  ctx: CheckContext,
  wallets: readonly WalletDoc[],
  transactions: readonly WalletTransactionDoc[],
): CheckOutcome {
  const f = new Findings("wallet_ledger", ctx);
  const byWallet = new Map<string, WalletTransactionDoc[]>();
  for (const tx of transactions) byWallet.set(tx.wallet_id, [...(byWallet.get(tx.wallet_id) ?? []), tx]);
  const known = new Set(wallets.map((w) => w._id));
  for (const [walletId, txs] of byWallet) {
    if (known.has(walletId)) continue;
    f.breach(
      "transaction_without_wallet",
      `${txs.length} wallet transaction(s) name wallet ${walletId}, which does not exist`,
      txs.map(txRecord),
    );
  }
  for (const wallet of wallets) {
    f.checked++;
    checkWallet(f, wallet, byWallet.get(wallet._id) ?? []);
  }
  return f.outcome();
}

/** An applied movement: a settled transaction, or one the head's block settles that is not marked yet. */
interface Applied {
  tx: WalletTransactionDoc;
  seq: number;
  amount_cents: number;
}

function checkWallet(f: Findings, wallet: WalletDoc, txs: readonly WalletTransactionDoc[]): void {
  const head = { seq: wallet.ledger?.seq ?? 0, block: wallet.ledger?.block ?? [] };
  const inBlock = new Map<string, LedgerEntryDoc>(head.block.map((e) => [e.tx, e]));
  const applied: Applied[] = [];
  for (const tx of txs) {
    const sequence = tx.sequence ?? null;
    const entry = inBlock.get(tx._id);
    if (tx.status === "settled") {
      if (sequence === null) {
        f.breach("settled_without_sequence", `transaction ${tx._id} is settled but has no ledger sequence`, [
          walletRecord(wallet),
          txRecord(tx),
        ]);
        continue;
      }
      if (entry && entry.seq !== sequence) {
        f.breach(
          "block_mismatch",
          `transaction ${tx._id} is settled at sequence ${sequence}, its wallet's last move gave it ${String(entry.seq)}`,
          [walletRecord(wallet, head.seq), txRecord(tx)],
          { expected: entry.seq, actual: sequence },
        );
      }
      applied.push({ tx, seq: sequence, amount_cents: tx.amount_cents });
      continue;
    }
    if (sequence !== null) {
      f.breach(
        "sequence_without_settlement",
        `transaction ${tx._id} has ledger sequence ${sequence} but is ${tx.status}`,
        [walletRecord(wallet), txRecord(tx)],
      );
      continue;
    }
    // decided by the head's last move but not marked yet: counted as the head says
    if (entry && entry.seq !== null && tx.status === "pending")
      applied.push({ tx, seq: entry.seq, amount_cents: entry.amount_cents });
    else if (entry && entry.seq !== null) {
      f.breach(
        "block_mismatch",
        `transaction ${tx._id} is ${tx.status}, its wallet's last move settled it at sequence ${entry.seq}`,
        [walletRecord(wallet, head.seq), txRecord(tx)],
      );
    }
  }
  for (const entry of head.block) {
    if (!txs.some((t) => t._id === entry.tx)) {
      f.breach(
        "block_transaction_missing",
        `wallet ${wallet._id}'s last move names transaction ${entry.tx}, which does not exist`,
        [walletRecord(wallet, head.seq)],
      );
    }
  }

  // each sequence once, 1…head.seq
  const bySeq = new Map<number, Applied[]>();
  for (const a of applied) bySeq.set(a.seq, [...(bySeq.get(a.seq) ?? []), a]);
  for (const [seq, list] of bySeq) {
    if (list.length > 1) {
      f.breach(
        "sequence_reused",
        `${list.length} transactions of wallet ${wallet._id} are applied at sequence ${seq}`,
        [walletRecord(wallet, head.seq), ...list.map((a) => txRecord(a.tx))],
      );
    }
    if (!Number.isSafeInteger(seq) || seq < 1 || seq > head.seq) {
      f.breach(
        "sequence_out_of_range",
        `transaction ${list[0]!.tx._id} is applied at sequence ${seq}, outside 1…${head.seq} (the wallet's ledger head)`,
        [walletRecord(wallet, head.seq), ...list.map((a) => txRecord(a.tx))],
        { expected: head.seq, actual: seq },
      );
    }
  }
  const missing: number[] = [];
  for (let n = 1; n <= head.seq; n++) if (!bySeq.has(n)) missing.push(n);
  if (missing.length) {
    f.breach(
      "sequence_gap",
      `wallet ${wallet._id}'s ledger head is at ${head.seq} but no transaction is applied at sequence ${rangeText(missing)}`,
      [walletRecord(wallet, head.seq)],
      { expected: head.seq, actual: bySeq.size },
    );
  }

  // the balances the applied transactions make, in their order
  const ordered = [...applied].sort((a, b) => a.seq - b.seq);
  const inbound = sumCents(
    ordered.filter((a) => a.tx.transaction_type === "inbound").map((a) => a.amount_cents),
    "ledger inbound",
  );
  const outbound = sumCents(
    ordered.filter((a) => a.tx.transaction_type === "outbound").map((a) => a.amount_cents),
    "ledger outbound",
  );
  const balance = sumCents([inbound, -outbound], "ledger balance");
  if (balance !== wallet.balance_cents) {
    f.breach(
      "balance_mismatch",
      `wallet ${wallet._id} holds balance_cents ${wallet.balance_cents} (${credits(wallet, wallet.balance_cents)} credits) but its ${ordered.length} applied transactions make ${balance} (inbound ${inbound} − outbound ${outbound}; ${credits(wallet, balance)} credits)`,
      [walletRecord(wallet, head.seq), ...ordered.map((a) => txRecord(a.tx))],
      { expected: balance, actual: wallet.balance_cents },
    );
  }
  let consumed = 0;
  for (const a of ordered) {
    if (a.tx.transaction_status === "invoiced" && a.tx.transaction_type === "outbound")
      consumed = sumCents([consumed, a.amount_cents], "consumed");
    if (a.tx.voided_invoice_id && a.tx.transaction_type === "inbound")
      consumed = Math.max(0, sumCents([consumed, -a.amount_cents], "consumed"));
  }
  if (consumed !== (wallet.consumed_amount_cents ?? 0)) {
    f.breach(
      "consumed_mismatch",
      `wallet ${wallet._id} holds consumed_amount_cents ${wallet.consumed_amount_cents} but its invoice consumptions (less voided invoices' credits given back) make ${consumed}`,
      [
        walletRecord(wallet, head.seq),
        ...ordered
          .filter((a) => a.tx.transaction_status === "invoiced" || a.tx.voided_invoice_id)
          .map((a) => txRecord(a.tx)),
      ],
      { expected: consumed, actual: wallet.consumed_amount_cents },
    );
  }
  if (wallet.balance_cents < 0)
    f.breach("negative_balance", `wallet ${wallet._id} has a negative balance`, [walletRecord(wallet, head.seq)], {
      actual: wallet.balance_cents,
    });
}

const credits = (wallet: WalletDoc, cents: number): string => {
  try {
    return centsToCredits(cents, wallet.rate_amount, wallet.currency);
  } catch {
    return "?";
  }
};

/** "4", "4–6", "2, 5–7" */
function rangeText(numbers: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length; i++) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    parts.push(i === j ? String(numbers[i]) : `${numbers[i]}–${numbers[j]}`);
    i = j;
    if (parts.length === 10 && j < numbers.length - 1) {
      parts.push(`… (${numbers.length} missing)`);
      break;
    }
  }
  return parts.join(", ");
}

export function walletRecord(wallet: WalletDoc, headSeq?: number): BreachRecord {
  return {
    type: "wallet",
    id: wallet._id,
    fields: {
      customer_id: wallet.customer_id,
      status: wallet.status,
      currency: wallet.currency,
      rate_amount: wallet.rate_amount,
      balance_cents: wallet.balance_cents,
      credits_balance: credits(wallet, wallet.balance_cents),
      consumed_amount_cents: wallet.consumed_amount_cents ?? 0,
      ledger_seq: headSeq ?? wallet.ledger?.seq ?? 0,
    },
  };
}

export function txRecord(tx: WalletTransactionDoc): BreachRecord {
  return {
    type: "wallet_transaction",
    id: tx._id,
    fields: {
      wallet_id: tx.wallet_id,
      status: tx.status,
      transaction_status: tx.transaction_status,
      transaction_type: tx.transaction_type,
      amount_cents: tx.amount_cents,
      sequence: tx.sequence ?? null,
      invoice_id: tx.invoice_id ?? null,
      settled_at: iso(tx.settled_at),
    },
  };
}
