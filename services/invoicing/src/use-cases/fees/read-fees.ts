import { AppError } from "@billing/errors";
import type { PageRequest } from "@billing/mongo";
import type { AdvanceFeeRecord } from "../../domain/advance-fees";
import type { Fee, Invoice } from "../../domain/invoice";
import type { FeeFilter } from "../../persistence/fee-repository";
import type { FeeDeps } from "./deps";

/** A fee and what it is shown with: its invoice (if any) and, for a pay-in-advance fee, its record. */
export interface FeeRead {
  fee: Fee;
  invoice: Invoice | null;
  record: AdvanceFeeRecord | null;
}

/** An invoiced pay-in-advance fee is shown as its invoice holds it (coupons and taxes as finalized). */
function withInvoice(record: AdvanceFeeRecord, invoices: ReadonlyMap<string, Invoice>): FeeRead {
  const invoice = record.invoice_id ? (invoices.get(record.invoice_id) ?? null) : null;
  const onInvoice = invoice?.fees.find((f) => f.id === record.id);
  return { fee: onInvoice ?? record.fee, invoice, record };
}

/**
 * GET /fees/{svc_id}: a pay-in-advance fee (by `_id`), else a fee of one of the organization's
 * visible invoices (production MongoDB: the `fees.id` index; the test server scans).
 */
export async function getFee(deps: FeeDeps, organizationId: string, id: string): Promise<FeeRead> {
  const record = await deps.fees.findById(organizationId, id);
  if (record) {
    const invoices = new Map(
      (record.invoice_id ? await deps.invoices.findByIds([record.invoice_id]) : []).map((i) => [i.id, i]),
    );
    return withInvoice(record, invoices);
  }
  const invoice = await deps.invoices.findVisibleByFeeId(organizationId, id);
  const fee = invoice?.fees.find((f) => f.id === id);
  if (!invoice || !fee) throw AppError.notFound("fee");
  return { fee, invoice, record: null };
}

/** GET /fees: the organization's pay-in-advance fees, newest first, Lago's filters. */
export async function listFees(
  deps: FeeDeps,
  organizationId: string,
  filter: FeeFilter,
  page: PageRequest,
): Promise<{ items: FeeRead[]; total: number }> {
  const { items, total } = await deps.fees.list(organizationId, filter, page);
  const invoiceIds = [...new Set(items.map((r) => r.invoice_id).filter((id): id is string => !!id))];
  const invoices = new Map((await deps.invoices.findByIds(invoiceIds)).map((i) => [i.id, i]));
  return { items: items.map((r) => withInvoice(r, invoices)), total };
}
