import { Findings, type BreachRecord, type CheckContext, type CheckOutcome } from "../breach";
import type { InvoiceCounterDoc, InvoiceDoc } from "../documents";
import { invoiceRecord, wasFinalized } from "./invoice-totals";

type Role = "entity" | "customer";

/**
 * The counters an invoice takes its numbers from (services/invoicing/src/domain/invoice-number.ts):
 * every finalized invoice takes one from its billing entity's sequence (per_organization numbers,
 * Lago's per billing entity) and one from its customer's within that entity (per_customer numbers
 * and `sequential_id`).
 */
export const numberingScopes = (
  organizationId: string,
  entityCode: string,
  customerId: string,
): Record<Role, string> => ({
  entity: `entity:${organizationId}:${entityCode}`,
  customer: `customer:${organizationId}:${entityCode}:${customerId}`,
});

const pad3 = (n: number) => String(n).padStart(3, "0");

/**
 * invoice_numbering — each numbering sequence (per billing entity, and per customer of a billing
 * entity) is gap-free and unique (services/invoicing/src/persistence/invoice-numbers.ts):
 *  - the numbers given in a scope are exactly 1…counter.last, each to one invoice (an invoice named
 *    by the counter's last block but not yet carrying its number — a finalizer stopped between its
 *    writes, the next one writes it — counts as the block says);
 *  - every finalized or voided invoice carries both numbers, its sequential_id is its customer
 *    number, and its document number ends with one of them (the billing entity's numbering mode at
 *    finalization decides which; it is not kept, so either is accepted);
 *  - no two finalized invoices of the organization share a document number.
 * An invoice numbered but still open is a finalization under way (allowed: it keeps its numbers).
 * It cannot check the prefix or the YYYYMM part (the billing entity's prefix and time zone at
 * finalization are not kept on the invoice).
 */
export function checkInvoiceNumbering(
  ctx: CheckContext,
  invoices: readonly InvoiceDoc[],
  counters: readonly InvoiceCounterDoc[],
): CheckOutcome {
  const f = new Findings("invoice_numbering", ctx);
  const byId = new Map(invoices.map((i) => [i._id, i]));
  // scope key → number → invoices holding it
  const given = new Map<string, Map<number, string[]>>();
  const give = (key: string, n: number, invoiceId: string) => {
    const scope = given.get(key) ?? new Map<number, string[]>();
    const holders = scope.get(n) ?? [];
    if (!holders.includes(invoiceId)) holders.push(invoiceId);
    scope.set(n, holders);
    given.set(key, scope);
  };
  for (const invoice of invoices) {
    const scopes = numberingScopes(
      invoice.organization_id,
      invoice.billing_entity_code ?? "default",
      invoice.customer_id,
    );
    for (const role of ["entity", "customer"] as const) {
      const n = invoice.sequences?.[role];
      if (n !== undefined && n !== null) give(scopes[role], n, invoice._id);
    }
  }
  const counterOf = new Map(counters.map((c) => [c._id, c]));
  for (const counter of counters) {
    const block =
      counter.block ?? (counter.last_invoice ? { first: counter.last, invoices: [counter.last_invoice] } : null);
    block?.invoices.forEach((id, i) => {
      const role: Role = counter._id.startsWith("entity:") ? "entity" : "customer";
      // written on the invoice by the finalizer that moved the counter (or the next one, helping)
      const invoice = byId.get(id);
      if (invoice && invoice.sequences?.[role] === undefined) give(counter._id, block.first + i, id);
    });
  }

  for (const key of new Set([...given.keys(), ...counterOf.keys()])) {
    f.checked++;
    const counter = counterOf.get(key);
    const numbers = given.get(key) ?? new Map<number, string[]>();
    const last = counter?.last ?? 0;
    const records = (ids: readonly string[]): BreachRecord[] => [
      ...(counter ? [counterRecord(counter)] : []),
      ...ids.flatMap((id) => (byId.get(id) ? [invoiceRecord(byId.get(id)!)] : [])),
    ];
    if (!counter) {
      f.breach(
        "scope_without_counter",
        `invoices carry numbers of sequence ${key}, which has no counter`,
        records([...numbers.values()].flat()),
      );
      continue;
    }
    for (const [n, holders] of numbers) {
      if (holders.length > 1)
        f.breach(
          "number_reused",
          `number ${n} of sequence ${key} was given to ${holders.length} invoices`,
          records(holders),
          { actual: holders.length, expected: 1 },
        );
      if (n < 1 || n > last || !Number.isSafeInteger(n))
        f.breach(
          "number_out_of_range",
          `invoice ${holders[0]} holds number ${n} of sequence ${key}, whose counter is at ${last}`,
          records(holders),
          { expected: last, actual: n },
        );
    }
    const missing: number[] = [];
    for (let n = 1; n <= last; n++) if (!numbers.has(n)) missing.push(n);
    if (missing.length) {
      const shown = missing.slice(0, 20).join(", ") + (missing.length > 20 ? `, … (${missing.length} in all)` : "");
      // the invoices on either side of the first gap, so the gap can be found
      const neighbors = [...numbers.entries()]
        .filter(([n]) => n === missing[0]! - 1 || n === missing[0]! + 1)
        .flatMap(([, ids]) => ids);
      f.breach("number_gap", `sequence ${key} is at ${last} but no invoice holds number ${shown}`, records(neighbors), {
        expected: last,
        actual: numbers.size,
      });
    }
  }

  const numbersSeen = new Map<string, InvoiceDoc[]>();
  for (const invoice of invoices) {
    if (!wasFinalized(invoice)) continue;
    f.checked++;
    const seq = invoice.sequences ?? {};
    if (seq.entity === undefined || seq.customer === undefined) {
      f.breach(
        "finalized_without_number",
        `finalized invoice ${invoice._id} (${invoice.number}) holds no ${seq.entity === undefined ? "billing entity" : "customer"} sequence number`,
        [invoiceRecord(invoice)],
      );
      continue;
    }
    if ((invoice.sequential_id ?? null) !== seq.customer) {
      f.breach(
        "sequential_id_mismatch",
        `invoice ${invoice._id} shows sequential_id ${String(invoice.sequential_id)}, its customer sequence gave it ${seq.customer}`,
        [invoiceRecord(invoice)],
        { expected: seq.customer, actual: invoice.sequential_id ?? null },
      );
    }
    if (!invoice.number.endsWith(`-${pad3(seq.customer)}`) && !invoice.number.endsWith(`-${pad3(seq.entity)}`)) {
      f.breach(
        "document_number_mismatch",
        `invoice ${invoice._id}'s number ${invoice.number} ends with neither its customer number ${seq.customer} nor its billing entity number ${seq.entity}`,
        [invoiceRecord(invoice)],
      );
    }
    numbersSeen.set(invoice.number, [...(numbersSeen.get(invoice.number) ?? []), invoice]);
  }
  for (const [number, holders] of numbersSeen) {
    if (holders.length > 1)
      f.breach(
        "document_number_reused",
        `${holders.length} finalized invoices are numbered ${number}`,
        holders.map(invoiceRecord),
        { expected: 1, actual: holders.length },
      );
  }
  return f.outcome();
}

function counterRecord(counter: InvoiceCounterDoc): BreachRecord {
  return {
    type: "invoice_counter",
    id: counter._id,
    fields: {
      last: counter.last,
      block_first: counter.block?.first ?? null,
      block_invoices: counter.block?.invoices.join(",") ?? counter.last_invoice ?? null,
    },
  };
}
