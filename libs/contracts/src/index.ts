/**
 * @billing/contracts — the platform's typed seams: gRPC service refs typed by the definitions
 * generated from proto/ at build, their message types, and one zod schema per event subject.
 */
export {
  Rpc,
  type CatalogRpc,
  type CustomerRpc,
  type UsageRpc,
  type ScheduledWorkRpc,
  type ChargeUsageRpc,
  type InvoicingRpc,
  type InvoiceDocumentRpc,
  type LifetimeUsageRpc,
  type CreditNoteRpc,
  type WalletRpc,
  type PaymentRpc,
  type WebhookRpc,
  type PaymentRequestRpc,
  type AdvanceFeeRpc,
  type FeeRpc,
} from "./services";
export type { UsageAuditRpc, InvoiceAuditRpc } from "./services";
export type { WalletRecreditRpc, AppliedCouponRecreditRpc } from "./services";
export type * as CatalogMessages from "./generated/catalog-messages";
export type * as CustomerMessages from "./generated/customer-messages";
export type * as CommonMessages from "./generated/common-messages";
export type * as UsageMessages from "./generated/usage-messages";
export type * as InvoicingMessages from "./generated/invoicing-messages";
export type * as WalletMessages from "./generated/wallet-messages";
export type * as PaymentMessages from "./generated/payment-messages";
export * from "./events/index";
export { MAX_PROPERTIES_DEPTH, nestedDeeperThan } from "./event-limits";
export {
  amountDetailsFromProto,
  amountDetailsToProto,
  chargeFilterFromProto,
  chargeFilterToProto,
  chargePropertiesFromProto,
  chargePropertiesToProto,
  filterValuesFromProto,
  filterValuesToProto,
  groupedByToProto,
  type ChargeFilterValue,
} from "./charge-properties";
export {
  advanceFeeChargeSchema,
  advanceFeeSchema,
  advanceFeeSetSchema,
  advanceFeeSetToProto,
  advanceFeesFromProto,
  advanceFeesSchema,
  advanceFeesText,
  parseAdvanceFees,
  type AdvanceFeeData,
} from "./advance-fees";
export { feePropertiesFromProto, feePropertiesToProto } from "./fee-properties";
export { storedChargeSnapshot, type StoredChargeSnapshot, type StoredSnapshotRead } from "./charge-snapshot";
export { usageEventFromProto, usageEventToProto, type UsageEventData } from "./usage-events";
export { customerObjectOfText, customerObjectText } from "./customer-json";
export {
  appliedSectionViews,
  chooseSections,
  chosenSectionIdsOf,
  sectionChoiceInputOf,
  sectionsOf,
  NO_SECTIONS,
  type AppliedSection,
  type ResourceSections,
  type SectionChoice,
  type SectionChoiceInput,
} from "./resource-sections";
