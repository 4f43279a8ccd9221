import type { SubscriptionCopy } from "../../domain/copies";
import { invoiceSections, type SectionResource } from "../../domain/custom-sections";
import type { CustomSection, Invoice, SectionChoiceRecord } from "../../domain/invoice";
import type { FinalizeDeps } from "./deps";

type SectionDeps = Pick<FinalizeDeps, "documentParties"> & {
  copies: Pick<FinalizeDeps["copies"], "subscriptionsByIds">;
};

/**
 * The custom sections an invoice shows now (domain/custom-sections.ts), given its customer's:
 * a one-off invoice's own choice; a subscription invoice's subscriptions' choices (their copies,
 * `copies` when the caller has them, else read by id); the customer's for any other. The sections
 * chosen by id are resolved to the catalog's live ones (one call, only when some were chosen).
 */
export async function sectionsOfInvoice(
  deps: SectionDeps,
  invoice: Invoice,
  customer: readonly CustomSection[],
  copies?: readonly SubscriptionCopy[],
): Promise<CustomSection[]> {
  const choice = invoice.custom_section_choice;
  if (invoice.invoice_type === "one_off" && choice) {
    if (choice.skip) return [];
    const chosen = (await resolve(deps, invoice.organization_id, choice.section_ids)).map((r) => r.section);
    return invoiceSections(customer, { chosen });
  }
  const choices = await resourceChoices(deps, invoice, copies);
  // nothing of their own chosen or skipped: the customer's (no call)
  if (choices.every((c) => !c.skip && c.section_ids.length === 0)) return [...customer];
  const live = new Map(
    (
      await resolve(
        deps,
        invoice.organization_id,
        choices.flatMap((c) => c.section_ids),
      )
    ).map((s) => [s.id, s]),
  );
  const resources: SectionResource[] = choices.map((c) => ({
    skip: c.skip,
    sections: c.section_ids.flatMap((id) => live.get(id)?.section ?? []),
  }));
  return invoiceSections(customer, { resources });
}

/** The choices of the resources an invoice bills: a subscription invoice's subscriptions, a credit invoice's transaction or wallet; none for others. */
async function resourceChoices(
  deps: SectionDeps,
  invoice: Invoice,
  copies?: readonly SubscriptionCopy[],
): Promise<SectionChoiceRecord[]> {
  if (invoice.invoice_type === "credit") return invoice.section_resource ? [invoice.section_resource] : [];
  if (invoice.invoice_type !== "subscription") return [];
  const ids = new Set([
    ...invoice.lines.map((l) => l.subscription_id),
    ...invoice.fees.flatMap((f) => (f.subscription_id ? [f.subscription_id] : [])),
  ]);
  return (copies ?? (await deps.copies.subscriptionsByIds([...ids])))
    .filter((c) => ids.has(c.id))
    .map(({ subscription: s }) => ({
      skip: s.skip_invoice_custom_sections ?? false,
      section_ids: s.invoice_custom_section_ids ?? [],
    }));
}

/** Subscription copies read once each for the life of the answer (the invoices of one finalization call). */
export function memoizedCopies(deps: Pick<FinalizeDeps, "copies">): Pick<FinalizeDeps["copies"], "subscriptionsByIds"> {
  const known = new Map<string, Promise<SubscriptionCopy | undefined>>();
  return {
    async subscriptionsByIds(ids) {
      const missing = [...new Set(ids)].filter((id) => !known.has(id));
      if (missing.length > 0) {
        const read = deps.copies.subscriptionsByIds(missing).then((found) => new Map(found.map((c) => [c.id, c])));
        for (const id of missing)
          known.set(
            id,
            read.then((m) => m.get(id)),
          );
      }
      return (await Promise.all(ids.map((id) => known.get(id)!))).filter((c): c is SubscriptionCopy => !!c);
    },
  };
}

/** The live sections of these ids, each with its id (a deleted one is left out). */
async function resolve(
  deps: SectionDeps,
  organizationId: string,
  ids: readonly string[],
): Promise<Array<{ id: string; section: CustomSection }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  return deps.documentParties.resolveSections(organizationId, { ids: unique });
}
