import type { CustomerCopy } from "../../domain/copies";
import { taxedAdvanceFee, type AdvanceFeeRecord } from "../../domain/advance-fees";
import { waitingRecurringFees, type PricedLine } from "../../domain/invoice-fees";
import type { BillingEntityTerms } from "../../domain/invoicing-terms";
import { advanceFeesEvents } from "../../events/advance-fee-events";
import type { BillingDeps } from "./deps";

/**
 * The recurring pay-in-advance fees a billing creates without an invoice (Lago's recurring
 * non-invoiceable fees): at a periodic billing, a not-invoiceable pay-in-advance charge on a
 * recurring metric bills the units standing at the end of the period that ended, unprorated, for
 * the period that starts; the fee waits (payment pending) like a per-event one, until it is paid
 * and an advance_charges invoice gathers it (bill-advance-charges.ts). An invoiceable one is on
 * the periodic invoice itself (invoice-fees.ts). Each is announced like a per-event fee. Ids are
 * derived from the invoice being written, and the fees and their announcements are stored before
 * it, so a retry after a crash stores and announces each once and never loses one.
 */
export async function storeRecurringAdvanceFees(
  deps: Pick<BillingDeps, "clock" | "waitingFees">,
  invoiceId: string,
  customer: CustomerCopy,
  entity: BillingEntityTerms | null,
  lines: readonly PricedLine[],
  currency: string,
): Promise<number> {
  const now = deps.clock.now();
  const ctx = {
    invoiceId: `${invoiceId}|recurring`,
    customer: customer.customer,
    entityTaxes: entity?.taxes ?? [],
    currency,
  };
  const records: AdvanceFeeRecord[] = lines.flatMap((priced) =>
    waitingRecurringFees(ctx, priced).map((draft): AdvanceFeeRecord => ({
      id: draft.id,
      organization_id: priced.copy.organization_id,
      customer_id: customer.id,
      external_customer_id: customer.customer.external_id,
      subscription_id: priced.copy.subscription.svc_id,
      external_subscription_id: priced.copy.subscription.external_id,
      billable_metric_code: draft.billable_metric_code ?? "",
      currency,
      fee: taxedAdvanceFee(draft, currency),
      invoice_id: null,
      event_transaction_id: null,
      payment_status: "pending",
      succeeded_at: null,
      failed_at: null,
      refunded_at: null,
      created_at: now,
      updated_at: now,
      revision: 0,
    })),
  );
  await deps.waitingFees.store(records);
  // Lago's fee.created for each (billing.invoicing.advance_fees.created): in the fee outbox, published after they are stored
  if (records.length > 0)
    await deps.waitingFees.announce(
      `${invoiceId}|recurring`,
      advanceFeesEvents(`${invoiceId}|recurring`, records, now),
    );
  return records.length;
}
