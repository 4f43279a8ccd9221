import type { CreditNoteDocument, InvoiceDocument, InvoiceDocumentFee } from "./views";

/** Test fixtures: an invoice of `fees` charge fees (graduated, package, percentage, volume and standard in turn), fully populated. */
export function invoiceFixture(fees: number, locale = "en"): InvoiceDocument {
  const models: Array<Pick<InvoiceDocumentFee, "charge_model" | "amount_details">> = [
    {
      charge_model: "graduated",
      amount_details: {
        graduated_ranges: [
          {
            from_value: 0,
            to_value: 100,
            flat_unit_amount: "5.0",
            per_unit_amount: "0.1",
            units: "100.0",
            per_unit_total_amount: "10.0",
            total_with_flat_amount: "15.0",
          },
          {
            from_value: 101,
            to_value: null,
            flat_unit_amount: "0.0",
            per_unit_amount: "0.01",
            units: "50.0",
            per_unit_total_amount: "0.5",
            total_with_flat_amount: "0.5",
          },
        ],
      },
    },
    {
      charge_model: "package",
      amount_details: {
        free_units: "10.0",
        paid_units: "140.0",
        per_package_size: 100,
        per_package_unit_amount: "7.5",
      },
    },
    {
      charge_model: "percentage",
      amount_details: {
        units: "150.0",
        free_units: "0.0",
        paid_units: "150.0",
        rate: "2.5",
        per_unit_total_amount: "3.75",
        free_events: 0,
        paid_events: 3,
        fixed_fee_unit_amount: "0.25",
        fixed_fee_total_amount: "0.75",
        min_max_adjustment_total_amount: "0.0",
      },
    },
    {
      charge_model: "volume",
      amount_details: { flat_unit_amount: "2.0", per_unit_amount: "0.05", per_unit_total_amount: "7.5" },
    },
    { charge_model: "standard", amount_details: {} },
  ];
  return {
    locale,
    currency: "EUR",
    number: "ACME-202401-0042",
    invoice_type: "subscription",
    issuing_date: "2024-02-01",
    payment_due_date: "2024-02-15",
    dated_at: new Date("2024-02-01T00:00:00Z"),
    issuer: {
      name: "Électricité Générale",
      legal_name: "Électricité Générale SAS",
      legal_number: "RCS Paris 123 456 789",
      tax_identification_number: "FR12345678901",
      address: ["12 rue de la Paix", "75002 Paris", "France"],
      email: "factures@example.fr",
    },
    customer: {
      external_id: "acme",
      name: "Acmé Müller",
      address: ["Bahnhofstraße 1", "8001 Zürich", "CH"],
      email: "ap@acme.example",
      tax_identification_number: "CHE-123.456.789",
    },
    fees: Array.from({ length: fees }, (_, i) => ({
      name: `Metric ${i + 1} à la carte`,
      from: "2024-01-01",
      to: "2024-01-31",
      filters: i % 3 === 0 ? { region: ["eu", "us"] } : null,
      grouped_by: i % 4 === 0 ? { country: "fr" } : null,
      units: String(150 + i),
      unit_amount: "0.1033",
      amount_cents: 100_000 + i * 1_001,
      ...models[i % models.length]!,
    })),
    coupons: [{ name: "Été 2024", amount_cents: 2_500 }],
    taxes: [
      { name: "TVA", rate: "20", base_amount_cents: 123_456, amount_cents: 24_691 },
      { name: "TVA réduite", rate: "5.5", base_amount_cents: 10_000, amount_cents: 550 },
    ],
    totals: {
      fees_amount_cents: 133_456,
      progressive_billing_credit_amount_cents: 1_200,
      coupons_amount_cents: 2_500,
      sub_total_excluding_taxes_amount_cents: 129_756,
      taxes_amount_cents: 25_241,
      sub_total_including_taxes_amount_cents: 154_997,
      credit_notes_amount_cents: 3_333,
      prepaid_credit_amount_cents: 4_444,
      total_amount_cents: 147_220,
    },
    custom_sections: [
      { name: "Coordonnées bancaires", details: "IBAN FR76 3000 6000 0112 3456 7890 189 — BIC AGRIFRPP" },
    ],
    footer: "Merci de votre confiance. Pénalités de retard : trois fois le taux d'intérêt légal.",
  };
}

/** A credit note (shaped like Lago's CreditNoteObject) of two items on a taxed, coupon-discounted invoice. */
export function creditNoteFixture(locale = "en"): CreditNoteDocument {
  const invoice = invoiceFixture(0, locale);
  return {
    locale,
    currency: "EUR",
    number: "ACME-202401-0042-CN001",
    invoice_number: invoice.number,
    issuing_date: "2024-02-10",
    dated_at: new Date("2024-02-10T00:00:00Z"),
    reason: "duplicated_charge",
    description: "Appels facturés deux fois",
    credit_status: "available",
    refund_status: "pending",
    issuer: invoice.issuer,
    customer: invoice.customer,
    items: [
      {
        amount_cents: 5_000,
        fee: {
          name: "Seats",
          units: "10",
          amount_cents: 10_000,
          from: "2024-01-01",
          to: "2024-01-31",
          grouped_by: { team: "ops" },
        },
      },
      {
        amount_cents: 1_234,
        fee: { name: "API calls", units: "1234.5", amount_cents: 1_234, filters: { region: ["eu"] } },
      },
    ],
    applied_taxes: [{ name: "TVA", rate: "20", base_amount_cents: 5_734, amount_cents: 1_147 }],
    sub_total_excluding_taxes_amount_cents: 6_234,
    coupons_adjustment_amount_cents: 500,
    taxes_amount_cents: 1_147,
    credit_amount_cents: 4_881,
    refund_amount_cents: 2_000,
    total_amount_cents: 6_881,
    footer: "Avoir émis conformément à l'article 289 du CGI.",
  };
}
