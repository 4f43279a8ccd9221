import { describe, expect, it } from "vitest";
import { ctx, tx, wallet } from "../test-fixtures";
import { checkWalletLedgers } from "./wallet-ledger";

const codes = (o: ReturnType<typeof checkWalletLedgers>) => o.breaches.map((b) => b.code);

/** Granted 10.00 (seq 1), consumed 3.00 by an invoice (seq 2), a purchase pending, a void that failed. */
const story = () => ({
  wallets: [
    wallet({
      balance_cents: 700,
      consumed_amount_cents: 300,
      ledger: { seq: 2, move: "m2", block: [{ tx: "t2", seq: 2, amount_cents: 300, failure: null }] },
    }),
  ],
  transactions: [
    tx({ _id: "t1", amount_cents: 1000, sequence: 1 }),
    tx({
      _id: "t2",
      transaction_status: "invoiced",
      transaction_type: "outbound",
      amount_cents: 300,
      invoice_id: "i1",
      sequence: 2,
    }),
    tx({
      _id: "t3",
      transaction_status: "purchased",
      status: "pending",
      amount_cents: 5000,
      sequence: null,
      settled_at: null,
    }),
    tx({
      _id: "t4",
      transaction_status: "voided",
      transaction_type: "outbound",
      status: "failed",
      amount_cents: 9999,
      sequence: null,
      failure: "insufficient_credits",
    }),
  ],
});

describe("wallet_ledger", () => {
  it("finds a wallet equal to its ledger clean", () => {
    const { wallets, transactions } = story();
    const out = checkWalletLedgers(ctx, wallets, transactions);
    expect(out.breaches).toEqual([]);
    expect(out.checked).toBe(1);
  });

  it("reports a balance that differs from inbound − outbound, with the wallet and its transactions", () => {
    const { wallets, transactions } = story();
    const out = checkWalletLedgers(ctx, [{ ...wallets[0]!, balance_cents: 900 }], transactions);
    expect(codes(out)).toEqual(["balance_mismatch"]);
    const [b] = out.breaches;
    expect(b).toMatchObject({ invariant: "wallet_ledger", organization_id: "org_1", expected: 700, actual: 900 });
    expect(b!.message).toContain("inbound 1000 − outbound 300");
    expect(b!.records.map((r) => `${r.type}:${r.id}`)).toEqual([
      "wallet:w1",
      "wallet_transaction:t1",
      "wallet_transaction:t2",
    ]);
    expect(b!.records[0]!.fields).toMatchObject({ balance_cents: 900, credits_balance: "9.0" });
  });

  it("reports a consumed amount that differs from the invoices' consumptions", () => {
    const { wallets, transactions } = story();
    expect(codes(checkWalletLedgers(ctx, [{ ...wallets[0]!, consumed_amount_cents: 0 }], transactions))).toEqual([
      "consumed_mismatch",
    ]);
  });

  it("counts a voided invoice's credits given back as no longer consumed, never below zero", () => {
    const w = wallet({ balance_cents: 1000, consumed_amount_cents: 0, ledger: { seq: 3, block: [] } });
    const out = checkWalletLedgers(
      ctx,
      [w],
      [
        tx({ _id: "t1", amount_cents: 1000, sequence: 1 }),
        tx({
          _id: "t2",
          transaction_status: "invoiced",
          transaction_type: "outbound",
          amount_cents: 300,
          invoice_id: "i1",
          sequence: 2,
        }),
        tx({ _id: "t3", transaction_status: "granted", amount_cents: 300, voided_invoice_id: "i1", sequence: 3 }),
      ],
    );
    expect(out.breaches).toEqual([]);
  });

  it("reports a settled transaction counted twice (two at one sequence) and the gap it leaves", () => {
    const { wallets, transactions } = story();
    const out = checkWalletLedgers(
      ctx,
      [{ ...wallets[0]!, ledger: { seq: 3, block: [] } }],
      [...transactions, tx({ _id: "t5", amount_cents: 1000, sequence: 1 })],
    );
    expect(codes(out)).toEqual(["sequence_reused", "sequence_gap", "balance_mismatch"]);
    expect(out.breaches[0]!.records.map((r) => r.id)).toEqual(["w1", "t1", "t5"]);
    expect(out.breaches[1]!.message).toContain("no transaction is applied at sequence 3");
  });

  it("reports a settled transaction without a sequence, and a sequence on one not settled", () => {
    const { wallets, transactions } = story();
    const out = checkWalletLedgers(ctx, wallets, [
      ...transactions.slice(0, 2),
      { ...transactions[2]!, sequence: 7 },
      tx({ _id: "t6", sequence: null, amount_cents: 1 }),
    ]);
    expect(codes(out)).toEqual(["sequence_without_settlement", "settled_without_sequence"]);
  });

  it("counts a transaction the head's last block settled but a stopped mover did not mark yet", () => {
    const w = wallet({
      balance_cents: 1300,
      ledger: { seq: 2, move: "m2", block: [{ tx: "t2", seq: 2, amount_cents: 300, failure: null }] },
    });
    const out = checkWalletLedgers(
      ctx,
      [w],
      [tx({ _id: "t1", sequence: 1 }), tx({ _id: "t2", status: "pending", amount_cents: 300, sequence: null })],
    );
    expect(out.breaches).toEqual([]);
  });

  it("reports a sequence beyond the head, a negative balance and a transaction of no wallet", () => {
    const w = wallet({ balance_cents: -5, ledger: { seq: 0, block: [] } });
    const out = checkWalletLedgers(
      ctx,
      [w],
      [tx({ _id: "t1", sequence: 1, amount_cents: 1 }), tx({ _id: "tx_lost", wallet_id: "w_gone" })],
    );
    expect(codes(out).sort()).toEqual([
      "balance_mismatch",
      "negative_balance",
      "sequence_out_of_range",
      "transaction_without_wallet",
    ]);
  });
});
