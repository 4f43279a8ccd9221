import type { InvoicingDeps } from "../deps";

/** When the organization's next invoicing work is due after `after`: a billing, or the end of a grace period. */
export async function nextDueWork(deps: InvoicingDeps, organizationId: string, after: Date): Promise<Date | null> {
  const [billing, finalization] = await Promise.all([
    deps.copies.nextBillingAfter(organizationId, after),
    deps.invoices.nextFinalizationAfter(organizationId, after),
  ]);
  const times = [billing, finalization].filter((d): d is Date => d !== null).map((d) => d.getTime());
  return times.length ? new Date(Math.min(...times)) : null;
}
