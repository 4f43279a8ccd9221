import { isDuplicateKeyError } from "@billing/mongo";
import type { Models } from "./models";

/**
 * Gap-free, unique invoice sequences without transactions. A counter document per scope holds
 * the last number given and the invoice it went to. A finalizer first makes sure that invoice
 * carries its number ("helping" a finalizer that stopped between the two writes), then moves the
 * counter from n to n+1 with a conditional update naming itself, then writes n+1 on its invoice.
 * A retry finds the counter naming it and takes the same number again.
 */
export class InvoiceNumbers {
  constructor(private readonly models: Models) {}

  async allocate(scope: string, invoiceId: string): Promise<number> {
    const given = await this.sequenceOf(invoiceId, scope); // a retry after the number was written
    if (given !== null) return given;
    for (let attempt = 0; attempt < 200; attempt++) {
      const counter = await this.models.counters.findById(scope).lean<{ last: number; last_invoice: string | null }>();
      const last = counter?.last ?? 0;
      if (counter?.last_invoice === invoiceId) return last;
      if (counter?.last_invoice) await this.assign(counter.last_invoice, scope, last);
      try {
        const res = counter
          ? await this.models.counters.updateOne({ _id: scope, last }, { $set: { last: last + 1, last_invoice: invoiceId } })
          : await this.models.counters.collection.insertOne({ _id: scope, last: 1, last_invoice: invoiceId } as never).then(() => ({ modifiedCount: 1 }));
        if (res.modifiedCount === 1) {
          await this.assign(invoiceId, scope, last + 1);
          return last + 1;
        }
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(2 * (attempt + 1), 20)));
    }
    throw new Error(`could not number an invoice in ${scope}`);
  }

  /** Writes the sequence an invoice was given onto it, once. */
  private async assign(invoiceId: string, scope: string, n: number): Promise<void> {
    await this.models.invoices.updateOne({ _id: invoiceId, [`sequences.${scope}`]: { $exists: false } }, { $set: { [`sequences.${scope}`]: n } });
  }

  async sequenceOf(invoiceId: string, scope: string): Promise<number | null> {
    const doc = await this.models.invoices.findById(invoiceId, { sequences: 1 }).lean<{ sequences?: Record<string, number> }>();
    return doc?.sequences?.[scope] ?? null;
  }
}
