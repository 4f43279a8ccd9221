import type { SectionChoice, SectionChoiceInput } from "@billing/contracts";
import type { WalletDeps } from "./deps";

/**
 * A request's invoice custom sections choice with its codes resolved to the organization's live
 * sections (the catalog's; unknown codes are left out, as Lago does). undefined when none was sent.
 */
export async function resolveSectionChoice(
  deps: WalletDeps,
  organizationId: string,
  input: SectionChoiceInput | undefined,
): Promise<SectionChoice | undefined> {
  if (!input) return undefined;
  if (input.codes === undefined) return { skip: input.skip };
  return {
    skip: input.skip,
    sectionIds: deps.sections ? await deps.sections.idsOfCodes(organizationId, input.codes) : [],
  };
}
