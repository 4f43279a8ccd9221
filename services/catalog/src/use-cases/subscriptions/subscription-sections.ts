import { chosenSectionIdsOf, type SectionChoice, type SectionChoiceInput } from "@billing/contracts";
import type { InvoiceCustomSection } from "../../domain/invoice-custom-section";
import type { Subscription } from "../../domain/subscription";
import type { CatalogDeps } from "../deps";

/**
 * A request's section choice with its codes resolved to the organization's live sections, in the
 * order sent (Lago looks the codes up among the organization's sections: unknown ones are left out).
 * undefined when the request sent none (nothing changes).
 */
export async function resolveSectionChoice(
  deps: CatalogDeps,
  organizationId: string,
  input: SectionChoiceInput | undefined,
): Promise<SectionChoice | undefined> {
  if (!input) return undefined;
  if (input.codes === undefined) return { skip: input.skip };
  const codes = [...new Set(input.codes)];
  const found = codes.length ? await deps.invoiceCustomSections.findLiveByCodes(organizationId, codes) : [];
  const idOf = new Map(found.map((s) => [s.code, s.id]));
  return { skip: input.skip, sectionIds: codes.flatMap((code) => idOf.get(code) ?? []) };
}

/** The live sections the subscriptions chose, by id (one read for a page of them; deleted sections are not shown). */
export async function chosenSections(
  deps: CatalogDeps,
  organizationId: string,
  subs: readonly Subscription[],
): Promise<Map<string, InvoiceCustomSection>> {
  const ids = [...new Set(subs.flatMap(chosenSectionIdsOf))];
  if (ids.length === 0) return new Map();
  return new Map((await deps.invoiceCustomSections.findLiveByIds(organizationId, ids)).map((s) => [s.id, s]));
}
