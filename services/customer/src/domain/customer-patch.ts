import { randomUUID } from "node:crypto";
import type {
  Address,
  BillingConfiguration,
  Customer,
  CustomerTextField,
  IntegrationCustomer,
  MetadataItem,
} from "./types";

/**
 * What an upsert changes. A key that is absent was not sent and keeps its value;
 * `null` clears it. Lists (metadata, integrations) are replaced when sent. Tax and
 * section codes and the skip flag name catalog records: the use case resolves them
 * (see invoice-custom-section-rules.ts); applyCustomerPatch leaves them alone.
 */
export type CustomerPatch = Partial<Record<CustomerTextField, string | null>> & {
  billing_entity_code?: string;
  account_type?: string | null;
  net_payment_term?: number | null;
  finalize_zero_amount_invoice?: string | null;
  skip_invoice_custom_sections?: boolean | null;
  billing_configuration?: Partial<BillingConfiguration>;
  shipping_address?: Partial<Address>;
  metadata?: Array<{ id?: string; key: string; value: string; display_in_invoice: boolean }>;
  tax_codes?: string[];
  invoice_custom_section_codes?: string[];
  integration_customers?: Array<Partial<IntegrationCustomer> & { type: string }>;
};

export const EMPTY_ADDRESS: Address = {
  address_line1: null,
  address_line2: null,
  city: null,
  state: null,
  zipcode: null,
  country: null,
};

export const DEFAULT_BILLING_CONFIGURATION: BillingConfiguration = {
  invoice_grace_period: null,
  payment_provider: null,
  payment_provider_code: null,
  provider_customer_id: null,
  sync: false,
  sync_with_provider: false,
  document_locale: null,
  provider_payment_methods: [],
  subscription_invoice_issuing_date_anchor: null,
  subscription_invoice_issuing_date_adjustment: null,
};

function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function mergeMetadata(
  current: MetadataItem[],
  sent: NonNullable<CustomerPatch["metadata"]>,
  now: Date,
): MetadataItem[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  return sent.map((item) => {
    const existing = item.id ? byId.get(item.id) : undefined;
    return existing
      ? { ...existing, key: item.key, value: item.value, display_in_invoice: item.display_in_invoice }
      : {
          id: randomUUID(),
          key: item.key,
          value: item.value,
          display_in_invoice: item.display_in_invoice,
          created_at: now,
        };
  });
}

function mergeIntegrations(
  current: IntegrationCustomer[],
  sent: NonNullable<CustomerPatch["integration_customers"]>,
): IntegrationCustomer[] {
  const byId = new Map(current.map((i) => [i.id, i]));
  return sent.map((item) => {
    const base = (item.id && byId.get(item.id)) || {
      id: randomUUID(),
      type: item.type,
      integration_code: null,
      external_customer_id: null,
      sync_with_provider: false,
      subsidiary_id: null,
      targeted_object: null,
      email: null,
    };
    return {
      ...base,
      ...defined(item),
      id: base.id,
      sync_with_provider: item.sync_with_provider ?? base.sync_with_provider,
    };
  });
}

/** The customer after a patch; pure. */
export function applyCustomerPatch(customer: Customer, patch: CustomerPatch, now: Date): Customer {
  const {
    billing_configuration,
    shipping_address,
    metadata,
    integration_customers,
    account_type,
    finalize_zero_amount_invoice,
    tax_codes: _taxCodes,
    invoice_custom_section_codes: _sectionCodes,
    skip_invoice_custom_sections: _skip,
    ...scalars
  } = patch;
  const next: Customer = { ...customer, ...defined(scalars), updated_at: now };
  if (account_type !== undefined) next.account_type = account_type ?? "customer";
  if (finalize_zero_amount_invoice !== undefined)
    next.finalize_zero_amount_invoice = finalize_zero_amount_invoice ?? "inherit";
  if (billing_configuration) {
    const merged = { ...customer.billing_configuration, ...defined(billing_configuration) };
    merged.sync = merged.sync ?? false;
    merged.sync_with_provider = merged.sync_with_provider ?? false;
    merged.provider_payment_methods = merged.provider_payment_methods ?? [];
    next.billing_configuration = merged;
  }
  if (shipping_address) next.shipping_address = { ...customer.shipping_address, ...defined(shipping_address) };
  if (metadata) next.metadata = mergeMetadata(customer.metadata, metadata, now);
  if (integration_customers)
    next.integration_customers = mergeIntegrations(customer.integration_customers, integration_customers);
  return next;
}

/** The slug Lago shows: the organization's document prefix and the zero-padded sequential id. */
export function customerSlug(documentNumberPrefix: string, sequentialId: number): string {
  return `${documentNumberPrefix}-${String(sequentialId).padStart(3, "0")}`;
}

export function newCustomer(input: {
  id: string;
  organizationId: string;
  externalId: string;
  sequentialId: number;
  documentNumberPrefix: string;
  billingEntity: { id: string; code: string };
  now: Date;
}): Customer {
  const textFields = Object.fromEntries(
    [
      "name",
      "firstname",
      "lastname",
      "legal_name",
      "legal_number",
      "tax_identification_number",
      "email",
      "phone",
      "url",
      "logo_url",
      "address_line1",
      "address_line2",
      "city",
      "state",
      "zipcode",
      "country",
      "currency",
      "timezone",
      "customer_type",
    ].map((f) => [f, null]),
  ) as Record<CustomerTextField, null>;
  return {
    ...textFields,
    id: input.id,
    organization_id: input.organizationId,
    external_id: input.externalId,
    sequential_id: input.sequentialId,
    slug: customerSlug(input.documentNumberPrefix, input.sequentialId),
    billing_entity_id: input.billingEntity.id,
    billing_entity_code: input.billingEntity.code,
    account_type: "customer",
    net_payment_term: null,
    finalize_zero_amount_invoice: "inherit",
    skip_invoice_custom_sections: false,
    billing_configuration: { ...DEFAULT_BILLING_CONFIGURATION },
    shipping_address: { ...EMPTY_ADDRESS },
    metadata: [],
    integration_customers: [],
    tax_ids: [],
    invoice_custom_section_ids: [],
    created_at: input.now,
    updated_at: input.now,
    deleted_at: null,
  };
}
