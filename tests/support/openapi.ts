import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { repoRoot } from "@billing/testkit";

/**
 * Checks our responses against Lago's OpenAPI document (svc_-renamed), used
 * here as reference data only. Tolerates the document's known errors
 * (lago-api-contract.md §6–7): optional fields it declares non-null but Lago sends as null,
 * a wallet's `credits_ongoing_balance`, negative in Lago once usage passes the balance,
 * enums typed nullable whose value list forgets null (on_termination_credit_note), and a wallet's
 * `balance`, listed as required but declared nowhere (Lago's server no longer sends it), and a
 * manual payment's provider keys, required non-null though Lago sends them null, and an event's
 * properties, free-form in Lago's server (nested values too) where the document lists scalars, and
 * the `advance_charges` invoice type, a filter value of GET /invoices its invoice enum forgets. Our
 * extensions: the built-in `sandbox` payment provider joins every list of providers, and
 * `standard` (Standard Webhooks) the webhook endpoints' signature algorithms.
 */
const document = JSON.parse(
  readFileSync(join(repoRoot(), "..", "shared", "reference", "lago-openapi-svc.json"), "utf8"),
);
const wallet = document.components.schemas.WalletObject;
wallet.required = (wallet.required as string[]).filter((name) => name !== "balance" || name in wallet.properties);
// Lago's ongoing balance is the balance less the ongoing usage, not clamped (its wallets'
// RefreshOngoingUsageService): negative once usage passes the balance, which the pattern forgets
wallet.properties.credits_ongoing_balance.pattern = "^-?[0-9]+.?[0-9]*$";
const payment = document.components.schemas.PaymentObject;
for (const key of ["payment_provider_code", "payment_provider_type", "provider_customer_id", "reference"]) {
  payment.properties[key] = { anyOf: [payment.properties[key], { type: "null" }] };
}
// an event's properties are free-form in Lago's server (contract §6): a nested object or a boolean
// comes back as sent, where the document lists only strings and numbers
document.components.schemas.EventObject.properties.properties.additionalProperties = {};
// Lago's server answers `advance_charges` invoices (paid pay-in-advance fees regrouped), which the
// document lists as an invoice_type filter of GET /invoices but forgets in the invoice's own enum
const invoiceType = document.components.schemas.InvoiceBaseObject.properties.invoice_type;
if (!invoiceType.enum.includes("advance_charges")) invoiceType.enum = [...invoiceType.enum, "advance_charges"];
const endpoint = document.components.schemas.WebhookEndpointObject;
endpoint.properties.signature_algo.enum = [...endpoint.properties.signature_algo.enum, "standard"];
(function withSandboxProvider(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(withSandboxProvider);
  if (!node || typeof node !== "object") return;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o.enum) && o.enum.includes("stripe") && o.enum.includes("adyen")) o.enum = [...o.enum, "sandbox"];
  Object.values(o).forEach(withSandboxProvider);
})(document.components);

function tolerateNulls(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tolerateNulls);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== "nullable") out[k] = tolerateNulls(v);
  // `oneOf [string, integer, number]` (event properties): every integer matches two branches (contract §6: treat as anyOf).
  if (
    Array.isArray(out.oneOf) &&
    out.oneOf.every(
      (b) => b && typeof b === "object" && Object.keys(b).every((k) => k === "type" || k === "description"),
    )
  ) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.enum) && Array.isArray(out.type) && out.type.includes("null") && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  // OpenAPI 3.0's `nullable: true`, left in a few places of a 3.1 document
  if ((node as Record<string, unknown>).nullable === true) return { anyOf: [out, { type: "null" }] };
  if (out.properties && typeof out.properties === "object") {
    const required = new Set((out.required as string[]) ?? []);
    for (const [name, prop] of Object.entries(out.properties as Record<string, Record<string, unknown>>)) {
      if (!required.has(name) && prop && typeof prop === "object") {
        (out.properties as Record<string, unknown>)[name] = { anyOf: [prop, { type: "null" }] };
      }
    }
  }
  return out;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
// Lago's document writes a decimal's pattern as its `format` in a few places; checked as the pattern it is
ajv.addFormat("^[0-9]+.?[0-9]*$", /^[0-9]+.?[0-9]*$/);
ajv.addSchema({ $id: "lago", components: tolerateNulls(document.components) });

/** Validation errors of a body against a component schema (e.g. "Customer"); empty when valid. */
export function openapiErrors(schemaName: string, body: unknown): string[] {
  const validate = ajv.getSchema(`lago#/components/schemas/${schemaName}`);
  if (!validate) throw new Error(`no schema ${schemaName}`);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
