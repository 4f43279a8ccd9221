import { derivedUuid } from "@billing/bus";
import type { InvoiceCustomSectionChoice__Output } from "./generated/billing/common/v1/InvoiceCustomSectionChoice";

/** A section chosen for a resource (Lago's applied_invoice_custom_sections record): kept, with its id and date, while it stays chosen. */
export interface AppliedSection {
  id: string;
  invoice_custom_section_id: string;
  created_at: Date;
}

/**
 * What a resource keeps of its invoice custom sections (Lago's skip_invoice_custom_sections and
 * applied_invoice_custom_sections): a subscription in the catalog; a wallet, its recurring rule
 * and its transactions in the wallet service. The rules below are the one definition both use.
 */
export interface ResourceSections {
  skip_invoice_custom_sections: boolean;
  invoice_custom_sections: AppliedSection[];
}

/** Lago's InvoiceCustomSectionInput as sent: `codes` absent when not sent. */
export interface SectionChoiceInput {
  skip?: boolean | null;
  codes?: string[];
}

/**
 * Lago's InvoiceCustomSectionInput, its codes resolved to the organization's live sections
 * (unknown codes left out). `skip` absent or null: the resource's flag holds; `sectionIds`
 * absent: no codes were sent (an empty list clears the choice).
 */
export interface SectionChoice {
  skip?: boolean | null;
  sectionIds?: string[];
}

export const NO_SECTIONS: ResourceSections = { skip_invoice_custom_sections: false, invoice_custom_sections: [] };

/** A resource's sections as stored (documents written before sections have none). */
export const sectionsOf = (r: Partial<ResourceSections>): ResourceSections => ({
  skip_invoice_custom_sections: r.skip_invoice_custom_sections ?? false,
  invoice_custom_sections: r.invoice_custom_sections ?? [],
});

/**
 * A resource's sections after a choice (Lago's AttachToResourceService):
 * - skip sent true: the resource skips sections, its chosen ones are dropped (codes ignored);
 * - skip sent false: it stops skipping, and codes sent replace its choice;
 * - skip not sent: a skipping resource ignores the codes; another's choice is replaced by codes sent.
 * A section chosen again keeps its record (id and date); a new one gets an id derived from the
 * resource and the section, so a request sent twice records the same thing.
 */
export function chooseSections(
  current: ResourceSections,
  choice: SectionChoice,
  resourceId: string,
  now: Date,
): ResourceSections {
  if (choice.skip === true) return { skip_invoice_custom_sections: true, invoice_custom_sections: [] };
  if (choice.skip !== false && current.skip_invoice_custom_sections) return current;
  if (choice.sectionIds === undefined) return { ...current, skip_invoice_custom_sections: false };
  const wanted = new Set(choice.sectionIds);
  const kept = current.invoice_custom_sections.filter((a) => wanted.has(a.invoice_custom_section_id));
  const have = new Set(kept.map((a) => a.invoice_custom_section_id));
  const added = [...wanted]
    .filter((id) => !have.has(id))
    .map((id) => ({
      id: derivedUuid(`applied_invoice_custom_section|${resourceId}|${id}`),
      invoice_custom_section_id: id,
      created_at: now,
    }));
  return { skip_invoice_custom_sections: false, invoice_custom_sections: [...kept, ...added] };
}

/** The ids of the sections a resource chose, in its order. */
export const chosenSectionIdsOf = (r: Partial<ResourceSections>): string[] =>
  (r.invoice_custom_sections ?? []).map((a) => a.invoice_custom_section_id);

/** The proto InvoiceCustomSectionChoice as the use cases take it (codes absent when not sent); undefined when no choice was sent. */
export function sectionChoiceInputOf(
  m: InvoiceCustomSectionChoice__Output | null | undefined,
): SectionChoiceInput | undefined {
  return m
    ? { skip: m.skip_invoice_custom_sections ?? null, codes: m.codes_set ? m.invoice_custom_section_codes : undefined }
    : undefined;
}

/**
 * Lago's applied_invoice_custom_sections of a resource: its chosen sections that `sectionOf` still
 * finds (a deleted one is not shown), each with the section as the answer shows it.
 */
export function appliedSectionViews<S>(
  applied: readonly AppliedSection[] | undefined,
  sectionOf: (id: string) => S | undefined,
) {
  return (applied ?? []).flatMap((a) => {
    const section = sectionOf(a.invoice_custom_section_id);
    return section
      ? [
          {
            svc_id: a.id,
            invoice_custom_section_id: a.invoice_custom_section_id,
            created_at: a.created_at.toISOString(),
            invoice_custom_section: section,
          },
        ]
      : [];
  });
}
