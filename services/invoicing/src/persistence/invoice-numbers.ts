import { isDuplicateKeyError, LOST_RACE, retryOnLostRace, type Filter, type Update } from "@billing/mongo";
import type { InvoiceCounterDoc as CounterDoc, InvoiceDoc, Models } from "./models";

/** A numbering counter: its key (a billing entity, or a customer of one) and the field of the invoice it fills. */
export interface NumberingScope {
  key: string;
  role: "entity" | "customer";
}

/** An invoice without a number of that role yet, and the update that gives it one. */
const unnumbered = (id: string, role: NumberingScope["role"]): Filter<InvoiceDoc> =>
  role === "entity"
    ? { _id: id, "sequences.entity": { $exists: false } }
    : { _id: id, "sequences.customer": { $exists: false } };
const numbered = (role: NumberingScope["role"], n: number): Update<InvoiceDoc> =>
  role === "entity" ? { $set: { "sequences.entity": n } } : { $set: { "sequences.customer": n } };

const lastBlock = (c: CounterDoc | null) =>
  c?.block ?? (c?.last_invoice ? { first: c.last, invoices: [c.last_invoice] } : null);

/**
 * Gap-free, unique invoice sequences without transactions. A counter document per scope holds the
 * last number given and the block of invoices its last move numbered. A finalizer first makes sure
 * the invoices of that block carry their numbers ("helping" a finalizer that stopped between its
 * two writes), then moves the counter from n to n+k with a conditional update naming its k
 * invoices, then writes n+1…n+k on them. A retry finds the number on its invoice, or in the
 * counter's block, and takes the same number again. Numbering a billing pass's invoices as one
 * block costs five writes and reads, not five per invoice, and its finalizers never race for the
 * counter. The invoices must be stored before they are numbered (the helper writes on them).
 */
export class InvoiceNumbers {
  constructor(private readonly models: Models) {}

  async allocate(scope: NumberingScope, invoiceId: string): Promise<number> {
    return (await this.allocateMany(scope, [invoiceId])).get(invoiceId)!;
  }

  /** A number for each invoice (in the order given, for those not numbered yet). */
  async allocateMany(scope: NumberingScope, invoiceIds: readonly string[]): Promise<Map<string, number>> {
    // many finalizers may share an organization's counter: a lost race is expected, so try long
    return retryOnLostRace(
      `invoice numbering ${scope.key}`,
      async () => {
        const counter = await this.models.counters.findById(scope.key).lean<CounterDoc>();
        // read after the counter: an invoice numbered by a move before the one read is seen numbered here
        const numbers = await this.sequencesOf(invoiceIds, scope.role);
        const block = lastBlock(counter);
        if (block) {
          await this.assign(
            scope.role,
            block.invoices.map((id, i) => [id, block.first + i]),
          );
          block.invoices.forEach(
            (id, i) => invoiceIds.includes(id) && !numbers.has(id) && numbers.set(id, block.first + i),
          );
        }
        const rest = [...new Set(invoiceIds)].filter((id) => !numbers.has(id));
        if (rest.length === 0) return numbers;
        const last = counter?.last ?? 0;
        const next = { last: last + rest.length, block: { first: last + 1, invoices: rest } };
        try {
          const moved = counter
            ? (
                await this.models.counters.updateOne(
                  { _id: scope.key, last },
                  { $set: next, $unset: { last_invoice: "" } },
                )
              ).modifiedCount === 1
            : (await this.models.counters.collection.insertOne({ _id: scope.key, ...next }), true);
          if (!moved) return LOST_RACE;
        } catch (err) {
          if (isDuplicateKeyError(err)) return LOST_RACE;
          throw err;
        }
        const given = rest.map((id, i) => [id, last + 1 + i] as const);
        await this.assign(scope.role, given);
        for (const [id, n] of given) numbers.set(id, n);
        return numbers;
      },
      400,
    );
  }

  /** Writes the sequence each invoice was given onto it, once (one bulk write). */
  private async assign(role: NumberingScope["role"], given: ReadonlyArray<readonly [string, number]>): Promise<void> {
    if (given.length === 0) return;
    await this.models.invoices.bulkWrite(
      given.map(([id, n]) => ({
        updateOne: { filter: unnumbered(id, role), update: numbered(role, n) },
      })),
      { ordered: false },
    );
  }

  private async sequencesOf(invoiceIds: readonly string[], role: NumberingScope["role"]): Promise<Map<string, number>> {
    const docs = await this.models.invoices
      .find({ _id: { $in: invoiceIds } }, { sequences: 1 })
      .lean<Array<Pick<InvoiceDoc, "_id" | "sequences">>>();
    return new Map(
      docs.flatMap((d) => (d.sequences?.[role] !== undefined ? [[d._id, d.sequences[role]!] as const] : [])),
    );
  }
}
