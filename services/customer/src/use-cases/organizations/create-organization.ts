import { randomUUID } from "node:crypto";
import { AppError } from "@billing/errors";
import { apiKeyPrefix, generateApiKey, hashApiKey, type ApiKey } from "../../domain/api-key";
import { documentNumberPrefix } from "../../domain/organization";
import type { BillingEntity, Organization } from "../../domain/types";
import type { CustomerDeps } from "../deps";

function defaultBillingEntity(organization: Organization): BillingEntity {
  return {
    id: randomUUID(),
    organization_id: organization.id,
    code: "default",
    name: organization.name,
    is_default: true,
    default_currency: "USD",
    document_locale: "en",
    document_numbering: "per_customer",
    document_number_prefix: organization.document_number_prefix,
    finalize_zero_amount_invoice: true,
    invoice_footer: null,
    invoice_grace_period: 0,
    net_payment_term: 0,
    subscription_invoice_issuing_date_anchor: "next_period_start",
    subscription_invoice_issuing_date_adjustment: "align_with_finalization_date",
    timezone: "UTC",
    email_settings: [],
    eu_tax_management: false,
    address_line1: null,
    address_line2: null,
    city: null,
    state: null,
    country: null,
    zipcode: null,
    email: null,
    legal_name: null,
    legal_number: null,
    tax_identification_number: null,
    logo_url: null,
    created_at: organization.created_at,
    updated_at: organization.created_at,
  };
}

/** Creates an organization with its default billing entity and one API key (given, or generated). */
export async function createOrganization(
  deps: Pick<CustomerDeps, "organizations" | "clock">,
  input: { name: string; apiKey?: string; sandbox?: { frozenTime: Date } },
): Promise<{ organization: Organization; apiKey: string }> {
  const name = input.name.trim();
  if (!name) throw AppError.validation({ name: ["value_is_mandatory"] });
  const id = randomUUID();
  const test_clock = input.sandbox
    ? { frozen_time: input.sandbox.frozenTime, status: "ready" as const, target: null }
    : null;
  // a sandbox organization is born at its clock's time
  const created_at = input.sandbox ? input.sandbox.frozenTime : deps.clock.now();
  const organization: Organization = {
    id,
    name,
    document_number_prefix: documentNumberPrefix(name, id),
    created_at,
    test_clock,
  };
  const apiKey = input.apiKey ?? generateApiKey();
  // a key given explicitly must be new, checked before anything is written: a stored one is another
  // organization's, or revoked (never to work again); storing it would break the unique key_hash
  if (input.apiKey !== undefined) {
    const known = await deps.organizations.findApiKeyByHash(hashApiKey(apiKey));
    if (known) {
      const message = known.revoked_at
        ? `this API key was revoked on ${known.revoked_at.toISOString()} (key ${known.prefix ?? known.id} of organization ${known.organization_id}): a revoked key never works again; give another key, or none for a generated one`
        : `this API key already belongs to organization ${known.organization_id}`;
      throw new AppError(
        "unprocessable",
        "validation_errors",
        { api_key: [known.revoked_at ? "value_already_revoked" : "value_already_exist"] },
        message,
      );
    }
  }
  const key: ApiKey = {
    id: randomUUID(),
    organization_id: id,
    name: null,
    prefix: apiKeyPrefix(apiKey),
    created_at,
    last_used_at: null,
    revoked_at: null,
  };
  await deps.organizations.create(organization, key, hashApiKey(apiKey), defaultBillingEntity(organization));
  return { organization, apiKey };
}
