/**
 * The counters a finalized invoice takes its numbers from (gap-free, each on its own document):
 * every finalized invoice takes one of each, so a billing entity switching numbering modes keeps
 * counting (billing-rules §4).
 */
export const numberingScopes = (organizationId: string, entityCode: string, customerId: string) => ({
  /** every finalized invoice of the billing entity (per_organization numbers) */
  entity: `entity:${organizationId}:${entityCode}`,
  /** the customer's finalized invoices of that billing entity (per_customer numbers, `sequential_id`) */
  customer: `customer:${organizationId}:${entityCode}:${customerId}`,
});
