import { type Instant, localDateOf } from "../periods/timezone";

/** The billing entity's document_numbering (`per_organization` is the API name of per_billing_entity). */
export type DocumentNumbering = "per_customer" | "per_billing_entity" | "per_organization";

export interface InvoiceNumberInput {
  document_numbering: DocumentNumbering;
  /** The billing entity's document_number_prefix (see documentNumberPrefix). */
  prefix: string;
  /**
   * n: per_customer, the rank of this invoice among the customer's finalized invoices for the
   * billing entity; per billing entity, the entity-wide rank of its finalized non-self-billed
   * invoices (never reset monthly, continuing the count kept while numbering per customer).
   */
  sequence: number;
  /** per_customer: the customer's sequential_id. */
  customer_sequential_id?: number | null;
  /** per billing entity: when the invoice is finalized, and the billing entity's (else organization's) time zone. */
  finalized_at?: Instant;
  timezone?: string | null;
}

const pad3 = (n: number) => String(n).padStart(3, "0");

function wholeNumber(name: string, value: number | null | undefined): number {
  if (value == null || !Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a whole number, got ${String(value)}`);
  return value;
}

/**
 * The default document_number_prefix of a billing entity: the first 3 characters of its name
 * upper-cased, "-", the last 4 characters of its id upper-cased ("Acme", "…9f3a" → "ACM-9F3A").
 */
export function defaultDocumentNumberPrefix(billingEntityName: string, billingEntityId: string): string {
  return `${[...billingEntityName].slice(0, 3).join("").toUpperCase()}-${billingEntityId.slice(-4).toUpperCase()}`;
}

/** The prefix a billing entity numbers with: its document_number_prefix, else the default one. */
export function documentNumberPrefix(entity: {
  name: string;
  id: string;
  document_number_prefix?: string | null;
}): string {
  return entity.document_number_prefix || defaultDocumentNumberPrefix(entity.name, entity.id);
}

/** A draft's number: "{prefix}-DRAFT" (the real number is given when the invoice is finalized). */
export function draftInvoiceNumber(prefix: string): string {
  return `${prefix}-DRAFT`;
}

/**
 * A finalized invoice's number (billing-rules §4): per_customer
 * `{prefix}-{customer sequential_id:03}-{n:03}`; per billing entity (per_organization)
 * `{prefix}-{YYYYMM}-{n:03}`, YYYYMM the finalization month in the entity's time zone.
 * Numbers above 999 keep all their digits.
 */
export function formatInvoiceNumber(input: InvoiceNumberInput): string {
  const n = pad3(wholeNumber("sequence", input.sequence));
  if (input.document_numbering === "per_customer") {
    return `${input.prefix}-${pad3(wholeNumber("customer_sequential_id", input.customer_sequential_id))}-${n}`;
  }
  if (input.finalized_at == null) throw new RangeError("per billing entity numbering needs finalized_at");
  const month = localDateOf(input.finalized_at, input.timezone || "UTC")
    .slice(0, 7)
    .replace("-", "");
  return `${input.prefix}-${month}-${n}`;
}
