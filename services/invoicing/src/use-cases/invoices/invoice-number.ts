import { localDateOf } from "@billing/pricing";
import type { Invoice } from "../../domain/invoice";
import type { BillingEntity } from "../../peers/billing-entities";
import type { InvoicingDeps } from "../deps";

const pad3 = (n: number) => String(n).padStart(3, "0");

/**
 * The number a finalized invoice takes (billing-rules §4): per_customer
 * `{prefix}-{customer sequential id:03}-{n:03}` (n counts the customer's finalized invoices), or
 * per organization `{prefix}-{YYYYMM}-{n:03}` (n counts the billing entity's). Gap-free and unique
 * under concurrency (InvoiceNumbers).
 */
export async function invoiceNumber(
  deps: InvoicingDeps,
  invoice: Pick<Invoice, "id" | "organization_id" | "customer_id" | "view">,
  entity: BillingEntity | null,
  zone: string,
): Promise<{ number: string; sequentialId: number }> {
  const customer = invoice.view.customer as { sequential_id?: number; slug?: string | null };
  const prefix = entity?.document_number_prefix || (customer.slug ?? "INV").replace(/-\d+$/, "");
  if (entity?.document_numbering === "per_billing_entity" || entity?.document_numbering === "per_organization") {
    const n = await deps.numbers.allocate(`entity:${invoice.organization_id}:${entity.code}`, invoice.id);
    const month = localDateOf(deps.clock.now(), entity.timezone || zone).slice(0, 7).replace("-", "");
    return { number: `${prefix}-${month}-${pad3(n)}`, sequentialId: n };
  }
  const n = await deps.numbers.allocate(`customer:${invoice.customer_id}`, invoice.id);
  return { number: `${prefix}-${pad3(customer.sequential_id ?? 0)}-${pad3(n)}`, sequentialId: n };
}
