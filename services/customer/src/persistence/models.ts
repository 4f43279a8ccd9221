import { Schema, type Connection } from "mongoose";
import type { Envelope } from "@billing/bus";
import { docModel, type SequenceDoc } from "@billing/mongo";
import type { ApiKey } from "../domain/api-key";
import type { BillingEntity, Customer, Organization } from "../domain/types";

/**
 * A stored customer: its fields, with its id as `_id`, its `live_key` and its embedded outbox.
 * Customers written before taxes and sections were resolved lack both lists and may carry
 * unchecked `tax_codes`: toCustomer gives them empty lists and drops the codes.
 */
export interface CustomerDoc extends Omit<Customer, "id" | "tax_ids" | "invoice_custom_section_ids"> {
  _id: string;
  /** external_id while the customer lives; "deleted:<id>" afterwards, so the external id can be reused */
  live_key: string;
  tax_ids?: string[];
  invoice_custom_section_ids?: string[];
  /** written by early versions, never read */
  tax_codes?: string[];
  outbox?: Envelope[];
}

/** A stored organization, its id as `_id`. */
export interface OrganizationDoc extends Omit<Organization, "id"> {
  _id: string;
}

/** A stored API key: its hash and what is listed. Keys stored before names, prefixes and revocation were kept lack them. */
export interface ApiKeyDoc extends Omit<ApiKey, "id" | "name" | "prefix" | "last_used_at" | "revoked_at"> {
  _id: string;
  key_hash: string;
  name?: string | null;
  prefix?: string | null;
  last_used_at?: Date | null;
  revoked_at?: Date | null;
}

/** A stored billing entity, its id as `_id`. */
export interface BillingEntityDoc extends Omit<BillingEntity, "id"> {
  _id: string;
}

export const toCustomer = ({
  _id,
  live_key: _liveKey,
  outbox: _outbox,
  tax_codes: _unchecked,
  ...rest
}: CustomerDoc): Customer => ({
  ...rest,
  id: _id,
  tax_ids: rest.tax_ids ?? [],
  invoice_custom_section_ids: rest.invoice_custom_section_ids ?? [],
});

export const customerDocOf = ({ id, ...rest }: Customer): CustomerDoc => ({
  ...rest,
  _id: id,
  live_key: rest.deleted_at ? `deleted:${id}` : rest.external_id,
});

export const toOrganization = ({ _id, ...rest }: OrganizationDoc): Organization => ({ ...rest, id: _id });

/** A key as listed: never its hash; the fields a key stored before them lacks are null. */
export const toApiKey = (doc: ApiKeyDoc): ApiKey => ({
  id: doc._id,
  organization_id: doc.organization_id,
  name: doc.name ?? null,
  prefix: doc.prefix ?? null,
  created_at: doc.created_at,
  last_used_at: doc.last_used_at ?? null,
  revoked_at: doc.revoked_at ?? null,
});

export const toBillingEntity = ({ _id, ...rest }: BillingEntityDoc): BillingEntity => ({ ...rest, id: _id });

const address = {
  address_line1: String,
  address_line2: String,
  city: String,
  state: String,
  zipcode: String,
  country: String,
};

const customerSchema = new Schema<CustomerDoc>(
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
    name: String,
    firstname: String,
    lastname: String,
    legal_name: String,
    legal_number: String,
    tax_identification_number: String,
    email: String,
    phone: String,
    url: String,
    logo_url: String,
    ...address,
    currency: String,
    timezone: String,
    customer_type: String,
    account_type: String,
    net_payment_term: Number,
    finalize_zero_amount_invoice: String,
    skip_invoice_custom_sections: Boolean,
    billing_configuration: {
      invoice_grace_period: Number,
      payment_provider: String,
      payment_provider_code: String,
      provider_customer_id: String,
      sync: Boolean,
      sync_with_provider: Boolean,
      document_locale: String,
      provider_payment_methods: [String],
      subscription_invoice_issuing_date_anchor: String,
      subscription_invoice_issuing_date_adjustment: String,
    },
    shipping_address: address,
    metadata: [{ _id: false, id: String, key: String, value: String, display_in_invoice: Boolean, created_at: Date }],
    integration_customers: [
      {
        _id: false,
        id: String,
        type: String,
        integration_code: String,
        external_customer_id: String,
        sync_with_provider: Boolean,
        subsidiary_id: String,
        targeted_object: String,
        email: String,
      },
    ],
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

const organizationSchema = new Schema<OrganizationDoc>(
  {
    _id: String,
    name: String,
    document_number_prefix: String,
    created_at: Date,
    test_clock: { type: { _id: false, frozen_time: Date, status: String, target: Date }, default: null },
  },
  { versionKey: false, collection: "organizations" },
);
// clocks left advancing by a stop, resumed at start (a natural query; rare documents)
organizationSchema.index({ "test_clock.status": 1 });

// name, prefix, last_used_at and revoked_at are absent from keys stored before them: such a key is live, unnamed, unprefixed
const apiKeySchema = new Schema<ApiKeyDoc>(
  {
    _id: String,
    organization_id: String,
    key_hash: String,
    name: String,
    prefix: String,
    created_at: Date,
    last_used_at: Date,
    revoked_at: Date,
  },
  { versionKey: false, collection: "api_keys" },
);
// authentication: by the unique hash (the test server's index lookup too)
apiKeySchema.index({ key_hash: 1 }, { unique: true });
// an organization's keys, for org:key list and revoke (a natural query: a handful of keys, asked from the CLI)
apiKeySchema.index({ organization_id: 1, created_at: 1, _id: 1 });

const billingEntitySchema = new Schema<BillingEntityDoc>(
  {
    _id: String,
    organization_id: String,
    code: String,
    name: String,
    is_default: Boolean,
    default_currency: String,
    document_locale: String,
    document_numbering: String,
    document_number_prefix: String,
    finalize_zero_amount_invoice: Boolean,
    invoice_footer: String,
    invoice_grace_period: Number,
    net_payment_term: Number,
    subscription_invoice_issuing_date_anchor: String,
    subscription_invoice_issuing_date_adjustment: String,
    timezone: String,
    email_settings: [String],
    eu_tax_management: Boolean,
    ...address,
    email: String,
    legal_name: String,
    legal_number: String,
    tax_identification_number: String,
    logo_url: String,
    created_at: Date,
    updated_at: Date,
  },
  { versionKey: false, collection: "billing_entities" },
);
billingEntitySchema.index({ organization_id: 1, code: 1 }, { unique: true });

/** Per-organization counters (customer sequential ids). */
const counterSchema = new Schema<SequenceDoc>(
  { _id: String, seq: Number },
  { versionKey: false, collection: "counters" },
);

export function registerModels(connection: Connection) {
  return {
    customers: docModel(connection, "Customer", customerSchema),
    organizations: docModel(connection, "Organization", organizationSchema),
    apiKeys: docModel(connection, "ApiKey", apiKeySchema),
    billingEntities: docModel(connection, "BillingEntity", billingEntitySchema),
    counters: docModel(connection, "Counter", counterSchema),
  };
}

export type Models = ReturnType<typeof registerModels>;
