/** A stored usage event. Its `_id` in MongoDB is `eventKey(...)`, so it is stored once. */
export interface UsageEventRecord {
  svc_id: string;
  organization_id: string;
  external_subscription_id: string;
  transaction_id: string;
  code: string;
  timestamp: Date;
  /** Values are strings or numbers, as sent; keys may hold `.` or start with `$`. */
  properties: Record<string, string | number>;
  precise_total_amount_cents: string | null;
  /** The ingest message (batch) that stored it. */
  batch_id: string;
  created_at: Date;
}

/** The unique key of an event: organization, external subscription id and transaction id. */
export const eventKey = (organizationId: string, externalSubscriptionId: string, transactionId: string) =>
  // JSON.stringify([organizationId, externalSubscriptionId, transactionId]), without the array (hot path)
  `[${JSON.stringify(organizationId)},${JSON.stringify(externalSubscriptionId)},${JSON.stringify(transactionId)}]`;

/** Stored events of one subscription (external id) and metric code over [from, to). */
export interface PeriodQuery {
  organizationId: string;
  externalSubscriptionId: string;
  code: string;
  from: Date;
  to: Date;
}

/** How the aggregation and estimate code read stored usage. */
export interface UsageReader {
  /** The events of the period in time order (transaction id as tiebreaker). */
  events(query: PeriodQuery): Promise<UsageEventRecord[]>;
}
