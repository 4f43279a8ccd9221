import { Schema, type Connection } from "mongoose";

const address = {
  address_line1: String, address_line2: String, city: String, state: String, zipcode: String, country: String,
};

const customerSchema = new Schema(
  {
    _id: String,
    organization_id: { type: String, required: true },
    external_id: { type: String, required: true },
    // external_id while the customer lives; "deleted:<id>" afterwards, so the external id can be reused.
    live_key: { type: String, required: true },
    sequential_id: Number,
    slug: String,
    billing_entity_id: String,
    billing_entity_code: String,
    name: String, firstname: String, lastname: String, legal_name: String, legal_number: String,
    tax_identification_number: String, email: String, phone: String, url: String, logo_url: String,
    ...address,
    currency: String, timezone: String, customer_type: String, account_type: String,
    net_payment_term: Number, finalize_zero_amount_invoice: String, skip_invoice_custom_sections: Boolean,
    billing_configuration: {
      invoice_grace_period: Number, payment_provider: String, payment_provider_code: String,
      provider_customer_id: String, sync: Boolean, sync_with_provider: Boolean, document_locale: String,
      provider_payment_methods: [String], subscription_invoice_issuing_date_anchor: String,
      subscription_invoice_issuing_date_adjustment: String,
    },
    shipping_address: address,
    metadata: [{ _id: false, id: String, key: String, value: String, display_in_invoice: Boolean, created_at: Date }],
    integration_customers: [{
      _id: false, id: String, type: String, integration_code: String, external_customer_id: String,
      sync_with_provider: Boolean, subsidiary_id: String, targeted_object: String, email: String,
    }],
    tax_ids: [String],
    invoice_custom_section_ids: [String],
    created_at: Date,
    updated_at: Date,
    deleted_at: Date,
    outbox: [Schema.Types.Mixed],
  },
  { versionKey: false, minimize: false, collection: "customers" },
);
customerSchema.index({ organization_id: 1, live_key: 1 }, { unique: true });
customerSchema.index({ organization_id: 1, deleted_at: 1, created_at: -1, _id: -1 });

const organizationSchema = new Schema(
  {
    _id: String, name: String, document_number_prefix: String, created_at: Date,
    test_clock: { type: { _id: false, frozen_time: Date, status: String, target: Date }, default: null },
  },
  { versionKey: false, collection: "organizations" },
);
// clocks left advancing by a stop, resumed at start (a natural query; rare documents)
organizationSchema.index({ "test_clock.status": 1 });

// name, prefix, last_used_at and revoked_at are absent from keys stored before them: such a key is live, unnamed, unprefixed
const apiKeySchema = new Schema(
  {
    _id: String, organization_id: String, key_hash: String, name: String, prefix: String,
    created_at: Date, last_used_at: Date, revoked_at: Date,
  },
  { versionKey: false, collection: "api_keys" },
);
// authentication: by the unique hash (the test server's index lookup too)
apiKeySchema.index({ key_hash: 1 }, { unique: true });
// an organization's keys, for org:key list and revoke (a natural query: a handful of keys, asked from the CLI)
apiKeySchema.index({ organization_id: 1, created_at: 1, _id: 1 });

const billingEntitySchema = new Schema(
  {
    _id: String, organization_id: String, code: String, name: String, is_default: Boolean,
    default_currency: String, document_locale: String, document_numbering: String, document_number_prefix: String,
    finalize_zero_amount_invoice: Boolean, invoice_footer: String, invoice_grace_period: Number,
    net_payment_term: Number, subscription_invoice_issuing_date_anchor: String,
    subscription_invoice_issuing_date_adjustment: String, timezone: String, email_settings: [String],
    eu_tax_management: Boolean, ...address, email: String, legal_name: String, legal_number: String,
    tax_identification_number: String, logo_url: String, created_at: Date, updated_at: Date,
  },
  { versionKey: false, collection: "billing_entities" },
);
billingEntitySchema.index({ organization_id: 1, code: 1 }, { unique: true });

/** Per-organization counters (customer sequential ids). */
const counterSchema = new Schema({ _id: String, seq: Number }, { versionKey: false, collection: "counters" });

export function registerModels(connection: Connection) {
  return {
    customers: connection.model("Customer", customerSchema),
    organizations: connection.model("Organization", organizationSchema),
    apiKeys: connection.model("ApiKey", apiKeySchema),
    billingEntities: connection.model("BillingEntity", billingEntitySchema),
    counters: connection.model("Counter", counterSchema),
  };
}

export type Models = ReturnType<typeof registerModels>;
