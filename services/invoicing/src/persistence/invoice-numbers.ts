import { isDuplicateKeyError, LOST_RACE, retryOnLostRace } from "@billing/mongo";
import type { Models } from "./models";

/** A numbering counter: its key (a billing entity, or a customer of one) and the field of the invoice it fills. */
export interface NumberingScope {
  key: string;
  role: "entity" | "customer";
}

/**
 * Gap-free, unique invoice sequences without transactions. A counter document per scope holds the
 * last number given and the invoice it went to. A finalizer first makes sure that invoice carries
 * its number ("helping" a finalizer that stopped between its two writes), then moves the counter
 * from n to n+1 with a conditional update naming itself, then writes n+1 on its invoice. A retry
 * finds the number on its invoice, or the counter naming it, and takes the same number again.
 * The invoice must be stored before it is numbered (the helper writes on it).
 */
export class InvoiceNumbers {
  constructor(private readonly models: Models) {}

  async allocate(scope: NumberingScope, invoiceId: string): Promise<number> {
    const given = await this.sequenceOf(invoiceId, scope.role);
    if (given !== null) return given;
    // many finalizers may share an organization's counter: a lost race is expected, so try long
    return retryOnLostRace(`invoice numbering ${scope.key}`, async () => {
      const counter = await this.models.counters.findById(scope.key).lean<{ last: number; last_invoice: string | null }>();
      const last = counter?.last ?? 0;
      if (counter?.last_invoice === invoiceId) {
        await this.assign(invoiceId, scope.role, last);
        return last;
      }
      if (counter?.last_invoice) await this.assign(counter.last_invoice, scope.role, last);
      try {
        const moved = counter
          ? (await this.models.counters.updateOne({ _id: scope.key, last }, { $set: { last: last + 1, last_invoice: invoiceId } })).modifiedCount === 1
          : (await this.models.counters.collection.insertOne({ _id: scope.key, last: 1, last_invoice: invoiceId } as never), true);
        if (!moved) return LOST_RACE;
      } catch (err) {
        if (isDuplicateKeyError(err)) return LOST_RACE;
        throw err;
      }
      await this.assign(invoiceId, scope.role, last + 1);
      return last + 1;
    }, 400);
  }

  /** Writes the sequence an invoice was given onto it, once. */
  private async assign(invoiceId: string, role: NumberingScope["role"], n: number): Promise<void> {
    await this.models.invoices.updateOne({ _id: invoiceId, [`sequences.${role}`]: { $exists: false } }, { $set: { [`sequences.${role}`]: n } });
  }

  private async sequenceOf(invoiceId: string, role: NumberingScope["role"]): Promise<number | null> {
    const doc = await this.models.invoices.findById(invoiceId, { sequences: 1 }).lean<{ sequences?: Partial<Record<NumberingScope["role"], number>> }>();
    return doc?.sequences?.[role] ?? null;
  }
}
