/**
 * What a document shows, as plain data: the services map their records to these views and the
 * renderers draw them. Amounts are integer minor units (`*_cents`) or decimal strings in major
 * units (unit prices, the charge models' amount_details), never floats.
 */

/** The issuer (a billing entity) or the customer billed. */
export interface DocumentParty {
  name: string;
  legal_name?: string | null;
  legal_number?: string | null;
  tax_identification_number?: string | null;
  /** address lines, in print order (street, city with zip code, state, country) */
  address: string[];
  email?: string | null;
  /** an image (PNG or JPEG bytes) drawn at the top left; the issuer's logo */
  logo?: Uint8Array | null;
}

/** One fee line of an invoice (Lago's fee, what its PDF shows of it). */
export interface InvoiceDocumentFee {
  /** the item's invoice display name */
  name: string;
  description?: string | null;
  /** the span it bills, as local dates (YYYY-MM-DD) */
  from?: string | null;
  to?: string | null;
  /** the charge filter it bills (`{region: ["eu", "us"]}`) and its group (`{country: "fr"}`) */
  filters?: Record<string, string[]> | null;
  filter_display_name?: string | null;
  grouped_by?: Record<string, string> | null;
  /** standard, graduated, volume, package, percentage, graduated_percentage…; null for a subscription fee */
  charge_model?: string | null;
  /** the pricing library's amount_details of the fee (ranges, packages, rate…) */
  amount_details?: Record<string, unknown> | null;
  units: string;
  /** the precise unit amount, in major units */
  unit_amount: string;
  amount_cents: number;
}

export interface DocumentTax {
  name: string;
  /** percent, as a decimal string ("20", "5.5") */
  rate: string;
  /** the amount it was computed on */
  base_amount_cents: number;
  amount_cents: number;
}

export interface DocumentCustomSection {
  name: string;
  details: string;
}

/** An invoice as its PDF shows it. */
export interface InvoiceDocument {
  /** en, fr, …: the labels' language (en when not translated) and the amounts' format */
  locale: string;
  currency: string;
  number: string;
  invoice_type: string;
  issuing_date: string;
  payment_due_date: string;
  /** the instant the document is dated (PDF CreationDate): fixed from the invoice, so regenerating gives the same bytes */
  dated_at: Date;
  issuer: DocumentParty;
  customer: DocumentParty & { external_id: string };
  fees: InvoiceDocumentFee[];
  coupons: Array<{ name: string; amount_cents: number }>;
  taxes: DocumentTax[];
  totals: {
    fees_amount_cents: number;
    progressive_billing_credit_amount_cents: number;
    coupons_amount_cents: number;
    sub_total_excluding_taxes_amount_cents: number;
    taxes_amount_cents: number;
    sub_total_including_taxes_amount_cents: number;
    credit_notes_amount_cents: number;
    prepaid_credit_amount_cents: number;
    total_amount_cents: number;
  };
  custom_sections: DocumentCustomSection[];
  footer?: string | null;
}

/** One item of a credit note: what it credits of one fee (Lago's CreditNoteItemObject). */
export interface CreditNoteDocumentItem {
  amount_cents: number;
  fee: {
    name: string;
    units: string;
    amount_cents: number;
    from?: string | null;
    to?: string | null;
    filters?: Record<string, string[]> | null;
    grouped_by?: Record<string, string> | null;
  };
}

/** A credit note as its PDF shows it (shaped like Lago's CreditNoteObject). */
export interface CreditNoteDocument {
  locale: string;
  currency: string;
  number: string;
  invoice_number: string;
  issuing_date: string;
  dated_at: Date;
  reason: string;
  description?: string | null;
  credit_status?: string | null;
  refund_status?: string | null;
  issuer: DocumentParty;
  customer: DocumentParty & { external_id: string };
  items: CreditNoteDocumentItem[];
  applied_taxes: DocumentTax[];
  sub_total_excluding_taxes_amount_cents: number;
  coupons_adjustment_amount_cents: number;
  taxes_amount_cents: number;
  credit_amount_cents: number;
  refund_amount_cents: number;
  offset_amount_cents?: number;
  total_amount_cents: number;
  footer?: string | null;
}
