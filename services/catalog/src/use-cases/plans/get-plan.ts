import { AppError } from "@billing/errors";
import type { PlanView } from "../../domain/views";
import type { CatalogDeps } from "../deps";
import { planViews } from "./plan-refs";

/** GET /plans/{code}. */
export async function getPlan(deps: CatalogDeps, organizationId: string, code: string): Promise<PlanView> {
  const plan = await deps.plans.findLive(organizationId, code);
  if (!plan) throw AppError.notFound("plan");
  return (await planViews(deps, organizationId, [plan]))[0]!;
}
