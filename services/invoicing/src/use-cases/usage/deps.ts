import type { FinalizeDeps } from "../invoices/deps";

/** What the customer usage reads are given (current usage priced by the usage service, past usage from invoices); each takes the part it uses. */
export type UsageDeps = Pick<FinalizeDeps, "billingEntities" | "clock" | "copies" | "invoices" | "usage">;
