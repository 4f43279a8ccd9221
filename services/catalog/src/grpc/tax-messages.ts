import type { CatalogMessages as M } from "@billing/contracts";
import type { Patch } from "../domain/patch";
import { TAX_PATCHABLE } from "../domain/tax-rules";
import type { Tax } from "../domain/types";
import { patchOf } from "./patch-messages";

/** Proto ⇄ domain for taxes (a tax's proto message is its view, `taxView`). */

/** The proto TaxInput → the fields sent, as a patch. */
export const taxPatchOf = (m: M.TaxInput__Output | null): Patch<Tax> => patchOf(m, TAX_PATCHABLE);
