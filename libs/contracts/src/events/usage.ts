import { z } from "zod";
import { instant, maybe, properties, text } from "./fields";

/** A stored usage event: Lago's EventObject. */
export const usageEventView = z.object({
  svc_id: text,
  transaction_id: text,
  external_subscription_id: text,
  code: text,
  timestamp: instant,
  properties: properties.default({}),
  precise_total_amount_cents: maybe(text),
  created_at: instant,
});
/**
 * billing.usage.event.ingested: the events of one stored ingest message and organization (at most
 * 1000 per envelope), published once they are stored; the envelope id derives from the batch id.
 */
export const eventIngestedData = z.object({ batch_id: text, events: z.array(usageEventView) });
