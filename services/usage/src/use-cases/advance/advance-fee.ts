import type { AdvanceFeeData } from "@billing/contracts";

/**
 * One fee a stored event created on a pay-in-advance charge (billing-rules §1.12), as the usage
 * service hands it to invoicing: the one definition is @billing/contracts' `advanceFeeSchema`
 * (invoicing parses the answer with it).
 */
export type AdvanceFee = AdvanceFeeData;
