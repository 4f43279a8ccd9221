import { AppError } from "@billing/errors";
import type { Tax } from "../../domain/types";
import type { CatalogDeps } from "../deps";

/** GET /taxes/{code}. */
export async function getTax(deps: CatalogDeps, organizationId: string, code: string): Promise<Tax> {
  const tax = await deps.taxes.findLive(organizationId, code);
  if (!tax) throw AppError.notFound("tax");
  return tax;
}
