import { customerObjectOfText, customerObjectText } from "./customer-json";
import type * as C from "./generated/common-messages";

/**
 * A usage event as the usage service stored it (Lago's EventObject with its acknowledgement), as
 * the contracts hand it over (billing.common.v1.UsageEvent): what pay-in-advance pricing is given,
 * and the late events an audit lists. `created_at` is "" where a contract does not carry it.
 */
export interface UsageEventData {
  svc_id: string;
  transaction_id: string;
  external_subscription_id: string;
  code: string;
  timestamp: string;
  /** the customer's own JSON object */
  properties: Record<string, unknown>;
  created_at: string;
}

/** An event → the UsageEvent message (its properties as their text). */
export const usageEventToProto = (
  e: Omit<UsageEventData, "created_at" | "properties"> & {
    properties?: Record<string, unknown> | null;
    created_at?: string | null;
  },
): C.UsageEvent => ({
  svc_id: e.svc_id,
  transaction_id: e.transaction_id,
  external_subscription_id: e.external_subscription_id,
  code: e.code,
  timestamp: e.timestamp,
  properties_json: customerObjectText(e.properties),
  created_at: e.created_at ?? "",
});

/** The UsageEvent message → the event (its properties checked: a JSON object; else this throws). */
export const usageEventFromProto = (m: C.UsageEvent__Output): UsageEventData => ({
  svc_id: m.svc_id,
  transaction_id: m.transaction_id,
  external_subscription_id: m.external_subscription_id,
  code: m.code,
  timestamp: m.timestamp,
  properties: customerObjectOfText(m.properties_json),
  created_at: m.created_at,
});
