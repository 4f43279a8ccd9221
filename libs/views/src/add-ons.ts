import type { CatalogMessages as M } from "@billing/contracts";
import { or, presentTax } from "./presenting";
import type { addOnObject, ViewOf } from "./schemas";

/** Lago's AddOnObject. */
export function presentAddOn(a: M.AddOn__Output) {
  return {
    svc_id: a.svc_id,
    name: a.name,
    invoice_display_name: or(a.invoice_display_name),
    code: a.code,
    amount_cents: a.amount_cents,
    amount_currency: a.amount_currency,
    description: or(a.description),
    created_at: a.created_at,
    taxes: (a.taxes ?? []).map(presentTax),
  } satisfies ViewOf<typeof addOnObject>;
}
