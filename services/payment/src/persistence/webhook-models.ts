import { Schema, type Connection } from "mongoose";
import { docModel } from "@billing/mongo";
import type { WebhookDelivery } from "../domain/webhook-delivery";
import type { WebhookEndpoint } from "../domain/webhook-endpoint";

/** A stored webhook endpoint, its id as `_id`. Endpoints written by earlier versions may lack a name, event types and a secret. */
export interface EndpointDoc extends Omit<WebhookEndpoint, "id" | "name" | "event_types" | "signing_secret"> {
  _id: string;
  name?: string | null;
  event_types?: string[] | null;
  signing_secret?: string | null;
}

/** An endpoint as the domain sees it; the fields earlier versions did not write are null. */
export const toEndpoint = ({ _id, ...rest }: EndpointDoc): WebhookEndpoint => ({
  ...rest,
  id: _id,
  name: rest.name ?? null,
  event_types: rest.event_types ?? null,
  signing_secret: rest.signing_secret ?? null,
});

/** A stored delivery, its id as `_id`, with the lease of the process sending it. */
export interface DeliveryDoc extends Omit<WebhookDelivery, "id"> {
  _id: string;
  lease_until?: Date | null;
  lease_owner?: string | null;
}

/** A delivery as the domain sees it (its lease is the repository's business). */
export const toDelivery = ({ _id, lease_until: _l, lease_owner: _o, ...rest }: DeliveryDoc): WebhookDelivery => ({
  ...rest,
  id: _id,
});

/** An organization's webhook endpoints (Lago allows ten; the URL is unique in its organization). */
const endpointSchema = new Schema<EndpointDoc>(
  {
    _id: String,
    organization_id: { type: String, required: true },
    webhook_url: String,
    signature_algo: String,
    name: String,
    event_types: { type: [String], default: undefined },
    signing_secret: String,
    created_at: Date,
    updated_at: Date,
  },
  { versionKey: false, minimize: false },
);
endpointSchema.index({ organization_id: 1, webhook_url: 1 }, { unique: true });
// the list and the fan-out's "endpoints of an organization": an index on real MongoDB, a scan of this small collection on the test server
endpointSchema.index({ organization_id: 1, created_at: 1 });

/**
 * Deliveries, keyed by the id derived from their event and endpoint (a redelivered event makes
 * no second delivery). `lease_until`/`lease_owner`: the process sending it (system time); a
 * pending delivery whose lease has passed is any replica's to send.
 */
const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: String,
    organization_id: { type: String, required: true },
    endpoint_id: String,
    endpoint: String,
    webhook_type: String,
    object_type: String,
    object_id: String,
    order_key: String,
    seq: Number,
    payload: String,
    status: String,
    retries: Number,
    http_status: Number,
    response: String,
    last_retried_at: Date,
    next_attempt_at: Date,
    lease_until: Date,
    lease_owner: String,
    created_at: Date,
    updated_at: Date,
  },
  { versionKey: false, minimize: false },
);
// the delivery log (newest first, by status or endpoint) and the sweeper's due deliveries and
// their objects' earlier ones: indexes on real MongoDB; the test server scans (the sweep is
// periodic and the hot path never queries: fresh deliveries are sent from memory)
deliverySchema.index({ organization_id: 1, created_at: -1, _id: -1 });
deliverySchema.index({ status: 1, lease_until: 1, seq: 1 });
deliverySchema.index({ order_key: 1, status: 1, seq: 1 });

/**
 * A signing key document: `hmac:<organization>` (an organization's HMAC key) or
 * `rsa:<organization>` (its RSA key pair for jwt signatures: `kid`, and `version`, 1 when made,
 * one more at each rotation). `rsa`, the one pair every organization shared before, is no longer read.
 */
export interface WebhookKeyDoc {
  _id: string;
  hmac_key?: string;
  private_pem?: string;
  public_pem?: string;
  kid?: string;
  version?: number;
  created_at: Date;
  rotated_at?: Date;
}
const keySchema = new Schema<WebhookKeyDoc>(
  {
    _id: String,
    hmac_key: String,
    private_pem: String,
    public_pem: String,
    kid: String,
    version: Number,
    created_at: Date,
    rotated_at: Date,
  },
  { versionKey: false },
);

export function registerWebhookModels(connection: Connection) {
  return {
    endpoints: docModel(connection, "WebhookEndpoint", endpointSchema, {
      collection: "webhook_endpoints",
      reuse: true,
    }),
    deliveries: docModel(connection, "WebhookDelivery", deliverySchema, { collection: "webhooks", reuse: true }),
    keys: docModel(connection, "WebhookKey", keySchema, { collection: "webhook_keys", reuse: true }),
  };
}

export type WebhookModels = ReturnType<typeof registerWebhookModels>;
