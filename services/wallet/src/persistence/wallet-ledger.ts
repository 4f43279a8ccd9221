import { randomUUID } from "node:crypto";
import type { Envelope } from "@billing/bus";
import { AppError } from "@billing/errors";
import { duplicateIndexes, isDuplicateKeyError, type BulkOperation, type DocFields, type Update } from "@billing/mongo";
import { decideBlock } from "../domain/wallet-rules";
import type { LedgerEntry, LedgerHead, Wallet, WalletTransaction } from "../domain/wallet";
import { transactionEvent, walletEvent } from "../events/wallet-events";
import { walletDebits } from "../metrics";
import { toTransaction, toWallet, transactionDocOf, type Models, type TransactionDoc, type WalletDoc } from "./models";
import { NO_OUTBOX, NO_PUBLISHER, type WalletPublisher } from "./wallet-repository";

/** Movements decided by one round at most (the rest wait for the next). */
const MAX_ROUND = 2_000;
/** Rounds a movement may lose to other movers of its wallet before its caller is told. */
const MAX_LOST_RACES = 200;
/** Moves this process has marked completely (their ids), remembered so their blocks are not read again. */
const REMEMBERED_MOVES = 50_000;

/** A movement waiting for a round: a stored transaction to apply, or a new one to store and apply. */
interface Movement {
  txId: string;
  walletId?: string;
  /** a new transaction: the round stores it (a duplicate means a retry) before deciding it */
  create?: (wallet: Wallet) => WalletTransaction;
  organizationId?: string;
  now: Date;
  lostRaces: number;
  /** set by a round that stored it (nobody else can have decided it without moving the head past the one read) */
  stored?: boolean;
  done: (err: unknown, result?: { transaction: WalletTransaction; wallet: Wallet }) => void;
}

/**
 * Applies wallets' transactions to their balances, each once and in one order, without
 * transactions (`../shared/design/mongo-compat.md`): the wallet document carries its ledger head
 * (how many movements were applied, the block its last move decided and that move's id). A move
 *   1. marks the head's block on its transactions if a crashed mover left them unmarked
 *      ("helping": the head says how each was decided);
 *   2. decides its own transactions in order on the wallet as read (never below zero, nothing
 *      into a terminated wallet);
 *   3. moves the head from seq n to n+k naming its block, with the new balance, in ONE write
 *      conditional on seq n (a concurrent move makes it decide again on the new state);
 *   4. marks its transactions settled (with their sequences) or failed.
 * A retry after any step finds the transaction marked, or in the head's block, and applies
 * nothing twice.
 *
 * Within a process, movements are decided in rounds (group commit): every movement waiting when a
 * round starts, across all wallets, is decided by that round with a handful of bulk reads and
 * writes (wallets read, new transactions stored, heads moved, transactions marked, events
 * published), one move per wallet. So a hot wallet costs a few writes per block, and a thousand
 * wallets cost the same handful of round trips as one. Every read and write is by `_id` plus
 * guards (fast on the test server too).
 */
export class WalletLedger {
  private waiting: Movement[] = [];
  private running = false;
  /** moves whose blocks this process marked completely (insertion order: the oldest are forgotten first) */
  private readonly markedMoves = new Set<string>();

  constructor(
    private readonly models: Models,
    private readonly publish: WalletPublisher = NO_PUBLISHER,
  ) {}

  /** Applies a stored transaction (pending → settled, or failed with its reason); answers it as stored. */
  async apply(transactionId: string, now: Date, walletId?: string): Promise<WalletTransaction> {
    return (await this.enqueue({ txId: transactionId, walletId, now })).transaction;
  }

  /**
   * Stores a new transaction of a wallet of this organization, built from the wallet as read, and
   * applies it, once: a retry (same id) finds it stored and answers how it was decided. Throws
   * not found when the wallet is not this organization's. Answers the transaction and the wallet
   * as it was before the move.
   */
  async record(
    organizationId: string,
    walletId: string,
    transactionId: string,
    create: (wallet: Wallet) => WalletTransaction,
    now: Date,
  ) {
    return this.enqueue({ txId: transactionId, walletId, organizationId, create, now });
  }

  private enqueue(
    movement: Omit<Movement, "done" | "lostRaces">,
  ): Promise<{ transaction: WalletTransaction; wallet: Wallet }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...movement, lostRaces: 0, done: (err, result) => (err ? reject(err) : resolve(result!)) });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length) {
        const round = this.waiting.splice(0, MAX_ROUND);
        try {
          this.waiting.push(...(await this.round(round)));
        } catch (err) {
          for (const m of round) m.done(err);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** One round: decides what it can of these movements; answers those that lost a race (for the next round). */
  private async round(movements: Movement[]): Promise<Movement[]> {
    // movements that know only their transaction find their wallet from it
    const unplaced = movements.filter((m) => !m.walletId);
    if (unplaced.length) {
      const txs = await this.transactions(unplaced.map((m) => m.txId));
      for (const m of unplaced) m.walletId = txs.get(m.txId)?.wallet_id;
    }
    const walletDocs = await this.models.wallets
      .find({ _id: { $in: [...new Set(movements.flatMap((m) => m.walletId ?? []))] } }, NO_OUTBOX)
      .lean<WalletDoc[]>();
    const wallets = new Map(walletDocs.map((d) => [d._id, toWallet(d)]));
    const live = movements.filter((m) => {
      const wallet = m.walletId ? wallets.get(m.walletId) : undefined;
      if (!wallet || (m.organizationId && wallet.organization_id !== m.organizationId)) {
        m.done(m.create ? AppError.notFound("wallet") : new Error(`transaction ${m.txId}: its wallet is missing`));
        return false;
      }
      return true;
    });

    // new transactions are stored after the heads were read: none can have been decided by a move before them
    const created = new Map<string, WalletTransaction>();
    const fresh = live.filter((m) => m.create && !m.stored);
    if (fresh.length) {
      for (const m of fresh) created.set(m.txId, m.create!(wallets.get(m.walletId!)!));
      const duplicates = await this.insert([...created.values()]);
      for (const m of fresh) if (!duplicates.has(m.txId)) m.stored = true;
      for (const id of duplicates) created.delete(id);
    }

    // the rest are read after the heads: one decided by a move before the head read is marked by now
    const heads = new Map(
      [...wallets].map(([id, w]): [string, LedgerHead] => [
        id,
        { seq: w.ledger?.seq ?? 0, block: w.ledger?.block ?? [], move: w.ledger?.move },
      ]),
    );
    const helpNeeded = [...new Set(live.map((m) => m.walletId!))].filter(
      (id) => heads.get(id)!.block.length && !this.markedMoves.has(heads.get(id)!.move ?? ""),
    );
    const toRead = [
      ...live.filter((m) => !(m.stored && created.has(m.txId))).map((m) => m.txId),
      ...helpNeeded.flatMap((id) => heads.get(id)!.block.map((e) => e.tx)),
    ];
    const read = toRead.length ? await this.transactions([...new Set(toRead)]) : new Map<string, WalletTransaction>();
    const known = (id: string) => created.get(id) ?? read.get(id);
    const events = { wallets: new Map<string, Envelope[]>(), transactions: new Map<string, Envelope[]>() };

    const byWallet = new Map<string, Movement[]>();
    for (const m of live) byWallet.set(m.walletId!, [...(byWallet.get(m.walletId!) ?? []), m]);

    // 1. blocks of crashed movers are marked, as their heads say (each transaction once)
    const marks = new Map<string, { entry: LedgerEntry; tx: WalletTransaction; now: Date }>();
    for (const walletId of helpNeeded) {
      const now = byWallet.get(walletId)![0]!.now;
      for (const entry of heads.get(walletId)!.block) {
        const tx = known(entry.tx);
        if (tx && tx.sequence === null && tx.status !== "failed") marks.set(tx.id, { entry, tx, now });
      }
    }

    // 2. each wallet decides its open movements on the head as read, and moves it (3.) conditionally
    const moves: Array<{
      walletId: string;
      id: string;
      entries: LedgerEntry[];
      movements: Movement[];
      update: Update<WalletDoc>;
      head: LedgerHead;
      now: Date;
      terminated: Envelope[];
    }> = [];
    const answered: Array<{ m: Movement; tx: WalletTransaction }> = [];
    for (const [walletId, list] of byWallet) {
      const wallet = wallets.get(walletId)!;
      const head: LedgerHead = heads.get(walletId)!;
      const inHead = new Map(head.block.map((e) => [e.tx, e]));
      const open: Movement[] = [];
      for (const m of list) {
        const tx = known(m.txId);
        if (!tx) m.done(new Error(`wallet transaction ${m.txId} is missing`));
        else if (tx.sequence !== null || tx.status === "failed") answered.push({ m, tx });
        else if (inHead.has(tx.id)) answered.push({ m, tx: endOf(tx, inHead.get(tx.id)!, m.now) });
        else open.push(m);
      }
      const unique = [...new Map(open.map((m) => [m.txId, m])).values()];
      if (unique.length === 0) continue;
      const now = new Date(Math.max(...open.map((m) => m.now.getTime())));
      const decided = decideBlock(
        { ...wallet, ledger: head },
        unique.map((m) => known(m.txId)!),
      );
      const id = randomUUID();
      const set: DocFields<WalletDoc> = {
        balance_cents: decided.balance_cents,
        consumed_amount_cents: decided.consumed_amount_cents,
        ledger: {
          seq: head.seq + decided.entries.filter((e) => e.seq !== null).length,
          block: decided.entries,
          move: id,
        },
        last_balance_sync_at: now,
        updated_at: now,
      };
      if (decided.consumed_amount_cents !== wallet.consumed_amount_cents) set.last_consumed_credit_at = now;
      const ends = decided.terminated && wallet.status !== "terminated";
      if (ends) Object.assign(set, { status: "terminated", terminated_at: now });
      // a termination is announced by the same write that ends the wallet
      const terminated = ends
        ? [
            walletEvent(
              "billing.wallet.wallet.terminated",
              { ...wallet, ...set, status: "terminated", terminated_at: now } as Wallet,
              now,
            ),
          ]
        : [];
      moves.push({
        walletId,
        id,
        entries: decided.entries,
        movements: open,
        head,
        now,
        terminated,
        update: terminated.length ? { $set: set, $push: { outbox: { $each: terminated } } } : { $set: set },
      });
    }
    const lost: Movement[] = [];
    if (moves.length) {
      const result = await this.models.wallets.collection.bulkWrite(
        moves.map((mv) => ({
          // conditional on the head read: its seq, and its move (a block of failures leaves seq as it was)
          updateOne: {
            filter: { _id: mv.walletId, "ledger.seq": mv.head.seq, "ledger.move": mv.head.move ?? null },
            update: mv.update,
          },
        })),
        { ordered: false },
      );
      // all moved (the usual case), or find out which did from the heads
      const movedIds =
        result.modifiedCount === moves.length
          ? new Set(moves.map((mv) => mv.id))
          : new Set(
              (
                await this.models.wallets
                  .find({ _id: { $in: moves.map((mv) => mv.walletId) } }, { "ledger.move": 1 })
                  .lean<Array<{ ledger?: { move?: string } }>>()
              ).map((d) => d.ledger?.move ?? ""),
            );
      for (const mv of moves) {
        if (!movedIds.has(mv.id)) {
          for (const m of mv.movements) {
            if (++m.lostRaces > MAX_LOST_RACES)
              m.done(new Error(`wallet ${mv.walletId} ledger move: lost ${MAX_LOST_RACES} races in a row`));
            else lost.push(m);
          }
          continue;
        }
        if (mv.terminated.length) events.wallets.set(mv.walletId, mv.terminated);
        const byTx = new Map(mv.entries.map((e) => [e.tx, e]));
        for (const m of mv.movements) {
          const tx = known(m.txId)!;
          if (!marks.has(tx.id)) marks.set(tx.id, { entry: byTx.get(tx.id)!, tx, now: mv.now });
          answered.push({ m, tx: endOf(tx, byTx.get(tx.id)!, mv.now) });
        }
      }
    }

    // 4. the decisions are written on their transactions (once each), with their events
    if (marks.size) {
      const updates = [...marks.values()].map(({ entry, tx, now }): BulkOperation<TransactionDoc> => {
        const end = endOf(tx, entry, now);
        const evts = [announcement(end, now)];
        events.transactions.set(tx.id, [...(events.transactions.get(tx.id) ?? []), ...evts]);
        return {
          updateOne:
            entry.seq !== null
              ? {
                  filter: { _id: tx.id, sequence: null },
                  update: {
                    $set: { sequence: entry.seq, amount_cents: entry.amount_cents, status: "settled", settled_at: now },
                    $push: { outbox: { $each: evts } },
                  },
                }
              : {
                  filter: { _id: tx.id, sequence: null, status: { $ne: "failed" } },
                  update: {
                    $set: { status: "failed", failure: entry.failure, failed_at: now },
                    $push: { outbox: { $each: evts } },
                  },
                },
        };
      });
      await this.models.transactions.bulkWrite(updates, { ordered: false });
      for (const { entry, tx } of marks.values()) {
        if (tx.transaction_type === "outbound")
          walletDebits.inc({ kind: tx.transaction_status, outcome: entry.seq !== null ? "settled" : "failed" });
      }
    }
    for (const mv of moves) this.remember(mv.id);
    for (const walletId of helpNeeded) if (heads.get(walletId)!.move) this.remember(heads.get(walletId)!.move!);

    await Promise.all([this.publish.wallets(events.wallets), this.publish.transactions(events.transactions)]);
    for (const { m, tx } of answered) m.done(undefined, { transaction: tx, wallet: wallets.get(m.walletId!)! });
    return lost;
  }

  private remember(moveId: string) {
    this.markedMoves.add(moveId);
    if (this.markedMoves.size > REMEMBERED_MOVES) this.markedMoves.delete(this.markedMoves.values().next().value!);
  }

  /**
   * Stores new transactions (one write; their announcement comes with their decision); answers
   * the ids already there (retries: left as they are).
   */
  private async insert(transactions: readonly WalletTransaction[]): Promise<Set<string>> {
    const docs = transactions.map((tx) => transactionDocOf(tx, []));
    try {
      await this.models.transactions.collection.insertMany(docs, { ordered: false });
      return new Set();
    } catch (err) {
      const duplicates = duplicateIndexes(err);
      if (duplicates) return new Set(duplicates.map((i) => transactions[i]!.id));
      if (isDuplicateKeyError(err) && transactions.length === 1) return new Set([transactions[0]!.id]);
      throw err;
    }
  }

  private async transactions(ids: readonly string[]): Promise<Map<string, WalletTransaction>> {
    const docs = await this.models.transactions.find({ _id: { $in: ids } }, NO_OUTBOX).lean<TransactionDoc[]>();
    return new Map(docs.map((d) => [d._id, toTransaction(d)]));
  }
}

/**
 * The event a decision announces: a consumption (created by the ledger, decided at once) is
 * announced once, as created, in its decided state (as Lago announces an invoice's use of
 * credits); any other transaction was announced when stored, and now as updated.
 */
function announcement(tx: WalletTransaction, now: Date): Envelope {
  return transactionEvent(
    tx.transaction_status === "invoiced"
      ? "billing.wallet.wallet_transaction.created"
      : "billing.wallet.wallet_transaction.updated",
    tx,
    now,
  );
}

/** A transaction as its ledger entry decided it. */
function endOf(tx: WalletTransaction, entry: LedgerEntry, now: Date): WalletTransaction {
  return entry.seq !== null
    ? { ...tx, sequence: entry.seq, amount_cents: entry.amount_cents, status: "settled", settled_at: now }
    : { ...tx, status: "failed", failure: entry.failure, failed_at: now };
}
