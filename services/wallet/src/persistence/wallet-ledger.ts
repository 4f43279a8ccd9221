import { LOST_RACE, retryOnLostRace } from "@billing/mongo";
import { decideBlock } from "../domain/wallet-rules";
import type { LedgerEntry, LedgerHead, WalletTransaction } from "../domain/wallet";
import { transactionEvent, walletEvent } from "../events/wallet-events";
import type { Models } from "./models";
import { NO_OUTBOX, NO_PUBLISHER, transactionOf, walletOf, type TransactionDoc, type WalletDoc, type WalletPublisher } from "./wallet-repository";

/** Transactions decided by one ledger move at most (a hot wallet's queue is drained in blocks). */
const MAX_BLOCK = 500;

/**
 * Applies a wallet's transactions to its balance, each once and in one order, without
 * transactions (`../shared/design/mongo-compat.md`): the wallet document carries its ledger head
 * (how many movements were applied and the block its last move decided). A move
 *   1. marks the head's block on its transactions if a crashed mover left them unmarked
 *      ("helping": the head says how each was decided);
 *   2. decides its own transactions in order on the wallet as read (never below zero, nothing
 *      into a terminated wallet);
 *   3. moves the head from seq n to n+k naming its block, with the new balance, in ONE write
 *      conditional on seq n (a concurrent move makes it decide again on the new state);
 *   4. marks its transactions settled (with their sequences) or failed.
 * A retry after any step finds the transaction marked, or in the head's block, and applies
 * nothing twice. Within a process, the movements waiting for a wallet are decided together (one
 * move for all of them), so a hot wallet costs a few writes per block rather than a race per
 * movement. Every read and write here is by `_id` plus guards (fast on the test server too).
 */
export class WalletLedger {
  /** Per wallet: the transactions waiting for the next move, and the move in flight. */
  private readonly queues = new Map<string, { waiting: Array<{ id: string; done: (err?: unknown) => void }>; running: boolean }>();

  constructor(private readonly models: Models, private readonly publish: WalletPublisher = NO_PUBLISHER) {}

  /** Applies a stored transaction (pending → settled, or failed with its reason); answers it as stored. */
  async apply(transactionId: string, now: Date, walletId?: string): Promise<WalletTransaction> {
    let wallet = walletId;
    if (!wallet) {
      const tx = await this.transaction(transactionId);
      if (tx.sequence !== null || tx.status === "failed") return tx;
      wallet = tx.wallet_id;
    }
    const queued = wallet;
    await new Promise<void>((resolve, reject) => {
      const queue = this.queues.get(queued) ?? { waiting: [], running: false };
      this.queues.set(queued, queue);
      queue.waiting.push({ id: transactionId, done: (err) => (err ? reject(err) : resolve()) });
      if (!queue.running) void this.drain(queued, now);
    });
    return this.transaction(transactionId);
  }

  private async drain(walletId: string, now: Date): Promise<void> {
    const queue = this.queues.get(walletId)!;
    queue.running = true;
    while (queue.waiting.length) {
      const batch = queue.waiting.splice(0, MAX_BLOCK);
      try {
        await this.move(walletId, batch.map((w) => w.id), now);
        for (const w of batch) w.done();
      } catch (err) {
        for (const w of batch) w.done(err);
      }
    }
    queue.running = false;
    this.queues.delete(walletId);
  }

  /** One ledger move for these transactions of one wallet (those already decided are left as they are). */
  private async move(walletId: string, ids: readonly string[], now: Date): Promise<void> {
    await retryOnLostRace(`wallet ${walletId} ledger move`, async () => {
      const doc = await this.models.wallets.findById(walletId, NO_OUTBOX).lean<WalletDoc>();
      if (!doc) throw new Error(`wallet ${walletId} is missing`);
      const wallet = walletOf(doc);
      const head: LedgerHead = { seq: wallet.ledger?.seq ?? 0, block: wallet.ledger?.block ?? [] };
      // read after the head: a transaction decided by a move before the one read is marked by now
      const txs = await this.transactions(ids);
      await this.mark(head.block, now);
      const inHead = new Set(head.block.map((e) => e.tx));
      const open = txs.filter((tx) => tx.sequence === null && tx.status !== "failed" && !inHead.has(tx.id));
      if (open.length === 0) return true;
      const decided = decideBlock({ ...wallet, ledger: head }, open);
      const set: Record<string, unknown> = {
        balance_cents: decided.balance_cents,
        consumed_amount_cents: decided.consumed_amount_cents,
        ledger: { seq: head.seq + decided.entries.filter((e) => e.seq !== null).length, block: decided.entries },
        last_balance_sync_at: now,
        updated_at: now,
      };
      if (decided.consumed_amount_cents !== wallet.consumed_amount_cents) set.last_consumed_credit_at = now;
      const ends = decided.terminated && wallet.status !== "terminated";
      if (ends) Object.assign(set, { status: "terminated", terminated_at: now });
      // a termination is announced by the same write that ends the wallet
      const events = ends ? [walletEvent("billing.wallet.wallet.terminated", { ...wallet, ...set, status: "terminated", terminated_at: now } as typeof wallet, now)] : [];
      const update = events.length ? { $set: set, $push: { outbox: { $each: events } } } : { $set: set };
      const moved = await this.models.wallets.collection.updateOne({ _id: walletId, "ledger.seq": head.seq } as never, update as never);
      if (moved.modifiedCount !== 1) return LOST_RACE;
      if (events.length) await this.publish.wallet(walletId, events);
      await this.mark(decided.entries, now, new Map(open.map((tx) => [tx.id, tx])));
      return true;
    }, 200);
  }

  /**
   * Writes a block's decisions on its transactions, once each (one bulk write), each with its
   * wallet_transaction.updated event (ids derived from the transaction and its end: the copies a
   * helping replica makes are one message).
   */
  private async mark(decided: readonly LedgerEntry[], now: Date, known?: ReadonlyMap<string, WalletTransaction>): Promise<void> {
    if (decided.length === 0) return;
    const txs = known ?? new Map((await this.transactions(decided.map((e) => e.tx))).map((tx) => [tx.id, tx]));
    // a block already marked (by its mover, or a helper) is left alone: nothing written or published again
    const entries = decided.filter((e) => txs.get(e.tx)!.sequence === null && txs.get(e.tx)!.status !== "failed");
    if (entries.length === 0) return;
    const events = new Map(entries.map((e) => {
      const tx = txs.get(e.tx)!;
      const ended: WalletTransaction = e.seq !== null
        ? { ...tx, sequence: e.seq, amount_cents: e.amount_cents, status: "settled", settled_at: now }
        : { ...tx, status: "failed", failure: e.failure, failed_at: now };
      return [e.tx, [transactionEvent("billing.wallet.wallet_transaction.updated", ended, now)]];
    }));
    await this.models.transactions.bulkWrite(entries.map((e) => ({
      updateOne: e.seq !== null
        ? {
          filter: { _id: e.tx, sequence: null },
          update: { $set: { sequence: e.seq, amount_cents: e.amount_cents, status: "settled", settled_at: now }, $push: { outbox: { $each: events.get(e.tx)! } } },
        }
        : {
          filter: { _id: e.tx, sequence: null, status: { $ne: "failed" } },
          update: { $set: { status: "failed", failure: e.failure, failed_at: now }, $push: { outbox: { $each: events.get(e.tx)! } } },
        },
    })) as never, { ordered: false });
    await Promise.all([...events].map(([id, list]) => this.publish.transaction(id, list)));
  }

  private async transactions(ids: readonly string[]): Promise<WalletTransaction[]> {
    const docs = await this.models.transactions.find({ _id: { $in: ids } }, NO_OUTBOX).lean<TransactionDoc[]>();
    const byId = new Map(docs.map((d) => [d._id, transactionOf({ ...d, sequence: d.sequence ?? null })]));
    return ids.map((id) => {
      const tx = byId.get(id);
      if (!tx) throw new Error(`wallet transaction ${id} is missing`);
      return tx;
    });
  }

  private async transaction(id: string): Promise<WalletTransaction> {
    return (await this.transactions([id]))[0]!;
  }
}
