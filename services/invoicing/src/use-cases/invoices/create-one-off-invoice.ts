import { derivedUuid } from "@billing/bus";
import { frozenTime } from "@billing/clock";
import type { SectionChoiceInput } from "@billing/contracts";
import { AppError } from "@billing/errors";
import type { Invoice } from "../../domain/invoice";
import { invoicingTerms } from "../../domain/invoicing-terms";
import { newOneOffInvoice, type OneOffFeeRequest } from "../../domain/one-off-invoice";
import type { FinalizeDeps, InvoiceDeps } from "./deps";
import { finalizeOpenInvoice } from "./finalize-open-invoice";

export interface OneOffRequest {
  external_customer_id: string;
  currency: string | null;
  billing_entity_code: string | null;
  fees: ReadonlyArray<{
    add_on_code: string;
    units: string | null;
    unit_amount_cents: number | null;
    description: string | null;
    invoice_display_name: string | null;
    tax_codes: string[] | null;
    from_datetime: string | null;
    to_datetime: string | null;
  }>;
  /** Lago's invoice_custom_section (absent: the customer's sections) */
  invoice_custom_section?: SectionChoiceInput;
}

/**
 * POST /invoices: a one-off invoice of add-on fees, finalized at once (taxes, a number, its
 * events; no coupons, credit notes or prepaid credits, as Lago). Unknown customer → 404
 * customer_not_found; an unknown add-on → 404 add_on_not_found; an unknown tax code → 404
 * tax_not_found; no fees → 404 fees_not_found (Lago's answers). Its id derives from the request
 * and the instant: a request replayed at the same instant (a sandbox's frozen clock) answers the
 * same invoice; a crash between the insert and the finalization is resumed by the due pass.
 */
export async function createOneOffInvoice(
  deps: FinalizeDeps & Pick<InvoiceDeps, "addOns" | "caughtUp">,
  organizationId: string,
  request: OneOffRequest,
): Promise<Invoice> {
  let customer = await deps.copies.customerByExternalId(organizationId, request.external_customer_id);
  if (!customer) {
    // a customer created a moment ago: its copy is on its way (the customer service's event)
    await deps.caughtUp();
    customer = await deps.copies.customerByExternalId(organizationId, request.external_customer_id);
  }
  if (!customer) throw AppError.notFound("customer");
  if (request.fees.length === 0) throw AppError.notFound("fees");
  const fees: OneOffFeeRequest[] = [];
  for (const f of request.fees) {
    const addOn = await deps.addOns.get(organizationId, f.add_on_code);
    if (!addOn) throw AppError.notFound("add_on");
    const from = f.from_datetime ? new Date(f.from_datetime) : null;
    const to = f.to_datetime ? new Date(f.to_datetime) : null;
    if ((from === null) !== (to === null) || (from && to && from > to))
      throw AppError.validation({ boundaries: ["values_are_invalid"] });
    fees.push({
      add_on: addOn,
      units: f.units,
      unit_amount_cents: f.unit_amount_cents,
      description: f.description,
      invoice_display_name: f.invoice_display_name,
      taxes: f.tax_codes?.length ? await deps.addOns.taxes(organizationId, f.tax_codes) : null,
      from,
      to,
    });
  }
  const entityCode = request.billing_entity_code ?? customer.customer.billing_entity_code;
  const entity = entityCode ? await deps.billingEntities.get(organizationId, entityCode) : null;
  if (request.billing_entity_code && !entity) throw AppError.notFound("billing_entity");
  const currency = request.currency ?? customer.customer.currency ?? fees[0]!.add_on.amount_currency;
  if (customer.customer.currency && currency !== customer.customer.currency)
    throw AppError.validation({ currency: ["currencies_does_not_match"] });
  // its own sections: none when skipped, else those of the codes sent (the organization's live ones; none found: the customer's)
  const choice = request.invoice_custom_section;
  const sectionChoice =
    choice && (choice.skip || choice.codes?.length)
      ? {
          skip: choice.skip === true,
          section_ids: choice.skip
            ? []
            : (await deps.documentParties.resolveSections(organizationId, { codes: choice.codes })).map((s) => s.id),
        }
      : null;
  const now = deps.clock.now();
  const id = derivedUuid(`one_off|${organizationId}|${customer.id}|${now.toISOString()}|${JSON.stringify(request)}`);
  if (!(await deps.invoices.findById(id))) {
    const invoice = newOneOffInvoice({
      id,
      organizationId,
      customer: { id: customer.id, customer: customer.customer },
      entity,
      terms: invoicingTerms(customer.customer, entity),
      currency,
      sandbox: frozenTime() !== undefined,
      fees,
      now,
    });
    await deps.invoices.insert({ ...invoice, custom_section_choice: sectionChoice }, []);
  }
  const final = await finalizeOpenInvoice(deps, id, { refresh: false });
  if (!final) throw AppError.internal(`one-off invoice ${id} vanished`);
  return final;
}
