import { SUBSCRIPTION_STATUSES } from "@billing/codes";
import { z } from "zod";
import { oneOf } from "../../http/fields";

/**
 * The `entitlements` object of POST and PATCH /plans/{code}/entitlements (Lago's EntitlementUpdateInput):
 * feature code → { privilege code → value }. Values are checked against their privilege by the catalog.
 */
export const entitlementsSchema = z.record(z.string(), z.record(z.string(), z.unknown()).nullable());

export type EntitlementsInput = z.infer<typeof entitlementsSchema>;

/** `subscription_status` (or its older name `status`) of /subscriptions/{external_id}/entitlements. */
export const subscriptionStatusQuery = oneOf(SUBSCRIPTION_STATUSES).optional();
