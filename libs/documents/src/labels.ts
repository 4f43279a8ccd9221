/** The words on a document, per language; an untranslated locale shows English. */
export interface Labels {
  invoice: string;
  credit_note: string;
  number: string;
  issuing_date: string;
  payment_due_date: string;
  invoice_number: string;
  from: string;
  bill_to: string;
  tax_id: string;
  legal_number: string;
  item: string;
  units: string;
  unit_price: string;
  amount: string;
  period: (from: string, to: string) => string;
  filters: string;
  group: string;
  range: (from: string, to: string | null) => string;
  flat_fee: string;
  free_units: string;
  paid_units: string;
  package_of: (size: string) => string;
  rate: string;
  fixed_fee: string;
  min_max_adjustment: string;
  fees_amount: string;
  progressive_billing_credit: string;
  coupon: string;
  sub_total_excl_taxes: string;
  tax: (name: string, rate: string, base: string) => string;
  no_tax: string;
  sub_total_incl_taxes: string;
  credit_notes: string;
  prepaid_credits: string;
  total_due: string;
  reason: string;
  credited: string;
  credited_column: string;
  refunded: string;
  offset: string;
  coupons_adjustment: string;
  total_credited: string;
  page: (n: number, of: number) => string;
}

const en: Labels = {
  invoice: "Invoice",
  credit_note: "Credit note",
  number: "Number",
  issuing_date: "Issue date",
  payment_due_date: "Payment due date",
  invoice_number: "Invoice",
  from: "From",
  bill_to: "Bill to",
  tax_id: "Tax ID",
  legal_number: "Registration number",
  item: "Item",
  units: "Units",
  unit_price: "Unit price",
  amount: "Amount",
  period: (from, to) => `${from} to ${to}`,
  filters: "Filters",
  group: "Group",
  range: (from, to) => (to === null ? `${from} and above` : `${from} to ${to}`),
  flat_fee: "flat fee",
  free_units: "Free units",
  paid_units: "Paid units",
  package_of: (size) => `per package of ${size}`,
  rate: "Rate",
  fixed_fee: "Fixed fee per transaction",
  min_max_adjustment: "Minimum/maximum adjustment",
  fees_amount: "Fees",
  progressive_billing_credit: "Usage already billed",
  coupon: "Coupon",
  sub_total_excl_taxes: "Subtotal excluding tax",
  tax: (name, rate, base) => `${name} (${rate}% on ${base})`,
  no_tax: "Tax (0%)",
  sub_total_incl_taxes: "Subtotal including tax",
  credit_notes: "Credit notes",
  prepaid_credits: "Prepaid credits",
  total_due: "Total due",
  reason: "Reason",
  credited: "Credited to the customer's balance",
  credited_column: "Credited",
  refunded: "Refunded",
  offset: "Offset against the invoice",
  coupons_adjustment: "Coupons adjustment",
  total_credited: "Total credited",
  page: (n, of) => `Page ${n} of ${of}`,
};

const fr: Labels = {
  invoice: "Facture",
  credit_note: "Avoir",
  number: "Numéro",
  issuing_date: "Date d'émission",
  payment_due_date: "Date d'échéance",
  invoice_number: "Facture",
  from: "Émetteur",
  bill_to: "Facturé à",
  tax_id: "N° de TVA",
  legal_number: "N° d'immatriculation",
  item: "Article",
  units: "Unités",
  unit_price: "Prix unitaire",
  amount: "Montant",
  period: (from, to) => `du ${from} au ${to}`,
  filters: "Filtres",
  group: "Groupe",
  range: (from, to) => (to === null ? `à partir de ${from}` : `de ${from} à ${to}`),
  flat_fee: "forfait",
  free_units: "Unités gratuites",
  paid_units: "Unités payantes",
  package_of: (size) => `par lot de ${size}`,
  rate: "Taux",
  fixed_fee: "Frais fixes par transaction",
  min_max_adjustment: "Ajustement minimum/maximum",
  fees_amount: "Frais",
  progressive_billing_credit: "Consommation déjà facturée",
  coupon: "Coupon",
  sub_total_excl_taxes: "Sous-total hors taxes",
  tax: (name, rate, base) => `${name} (${rate} % sur ${base})`,
  no_tax: "TVA (0 %)",
  sub_total_incl_taxes: "Sous-total toutes taxes comprises",
  credit_notes: "Avoirs",
  prepaid_credits: "Crédits prépayés",
  total_due: "Total à payer",
  reason: "Motif",
  credited: "Crédité sur le solde du client",
  credited_column: "Crédité",
  refunded: "Remboursé",
  offset: "Imputé sur la facture",
  coupons_adjustment: "Ajustement des coupons",
  total_credited: "Total de l'avoir",
  page: (n, of) => `Page ${n} sur ${of}`,
};

const LABELS: Record<string, Labels> = { en, fr };

/** The labels of `locale` ("fr", "fr-FR" → French), English when it is not translated. */
export function labelsFor(locale: string): Labels {
  return LABELS[locale.toLowerCase().split(/[-_]/)[0]!] ?? en;
}

export const TRANSLATED_LOCALES = Object.keys(LABELS);
