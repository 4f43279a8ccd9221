import { serviceRef } from "@billing/grpc";
import type { AddOnServiceDefinition } from "./generated/billing/catalog/v1/AddOnService";
import type { AppliedCouponServiceDefinition } from "./generated/billing/catalog/v1/AppliedCouponService";
import type { BillableMetricServiceDefinition } from "./generated/billing/catalog/v1/BillableMetricService";
import type { CouponServiceDefinition } from "./generated/billing/catalog/v1/CouponService";
import type { EntitlementServiceDefinition } from "./generated/billing/catalog/v1/EntitlementService";
import type { FeatureServiceDefinition } from "./generated/billing/catalog/v1/FeatureService";
import type { InvoiceCustomSectionServiceDefinition } from "./generated/billing/catalog/v1/InvoiceCustomSectionService";
import type { PlanServiceDefinition } from "./generated/billing/catalog/v1/PlanService";
import type { SubscriptionServiceDefinition } from "./generated/billing/catalog/v1/SubscriptionService";
import type { TaxServiceDefinition } from "./generated/billing/catalog/v1/TaxService";
import type { ScheduledWorkServiceDefinition } from "./generated/billing/common/v1/ScheduledWorkService";
import type { InvoiceServiceDefinition } from "./generated/billing/invoicing/v1/InvoiceService";
import type { InvoiceDocumentServiceDefinition } from "./generated/billing/invoicing/v1/InvoiceDocumentService";
import type { LifetimeUsageServiceDefinition } from "./generated/billing/invoicing/v1/LifetimeUsageService";
import type { CreditNoteServiceDefinition } from "./generated/billing/invoicing/v1/CreditNoteService";
import type { CustomerServiceDefinition } from "./generated/billing/customer/v1/CustomerService";
import type { ChargeUsageServiceDefinition } from "./generated/billing/usage/v1/ChargeUsageService";
import type { AdvanceFeeServiceDefinition } from "./generated/billing/usage/v1/AdvanceFeeService";
import type { FeeServiceDefinition } from "./generated/billing/invoicing/v1/FeeService";
import type { UsageServiceDefinition } from "./generated/billing/usage/v1/UsageService";
import type { UsageAuditServiceDefinition } from "./generated/billing/usage/v1/UsageAuditService";
import type { InvoiceAuditServiceDefinition } from "./generated/billing/invoicing/v1/InvoiceAuditService";
import type { WalletServiceDefinition } from "./generated/billing/wallet/v1/WalletService";
import type { WalletRecreditServiceDefinition } from "./generated/billing/wallet/v1/WalletRecreditService";
import type { AppliedCouponRecreditServiceDefinition } from "./generated/billing/catalog/v1/AppliedCouponRecreditService";
import type { PaymentServiceDefinition } from "./generated/billing/payment/v1/PaymentService";
import type { WebhookServiceDefinition } from "./generated/billing/payment/v1/WebhookService";
import type { PaymentRequestServiceDefinition } from "./generated/billing/payment/v1/PaymentRequestService";

const catalog = <D>(file: string, service: string) =>
  serviceRef<D>(`billing/catalog/v1/${file}`, `billing.catalog.v1.${service}`);

/**
 * Every gRPC service of the platform, typed by the definitions generated from proto/ at build
 * (`npm run generate -w @billing/contracts`). Servers `bind` handlers to a ref, clients are
 * `new RpcClient(ref, address)`: both are checked per method against the contract.
 */
export const Rpc = {
  customer: serviceRef<CustomerServiceDefinition>(
    "billing/customer/v1/customer.proto",
    "billing.customer.v1.CustomerService",
  ),
  catalog: {
    taxes: catalog<TaxServiceDefinition>("taxes.proto", "TaxService"),
    billableMetrics: catalog<BillableMetricServiceDefinition>("billable_metrics.proto", "BillableMetricService"),
    addOns: catalog<AddOnServiceDefinition>("add_ons.proto", "AddOnService"),
    coupons: catalog<CouponServiceDefinition>("coupons.proto", "CouponService"),
    appliedCoupons: catalog<AppliedCouponServiceDefinition>("applied_coupons.proto", "AppliedCouponService"),
    plans: catalog<PlanServiceDefinition>("plans.proto", "PlanService"),
    subscriptions: catalog<SubscriptionServiceDefinition>("subscriptions.proto", "SubscriptionService"),
    invoiceCustomSections: catalog<InvoiceCustomSectionServiceDefinition>(
      "invoice_custom_sections.proto",
      "InvoiceCustomSectionService",
    ),
    features: catalog<FeatureServiceDefinition>("features.proto", "FeatureService"),
    entitlements: catalog<EntitlementServiceDefinition>("entitlements.proto", "EntitlementService"),
  },
  usage: serviceRef<UsageServiceDefinition>("billing/usage/v1/usage.proto", "billing.usage.v1.UsageService"),
  invoicing: serviceRef<InvoiceServiceDefinition>(
    "billing/invoicing/v1/invoicing.proto",
    "billing.invoicing.v1.InvoiceService",
  ),
  /** Invoice PDFs (served by the invoicing service, at its address). */
  invoiceDocuments: serviceRef<InvoiceDocumentServiceDefinition>(
    "billing/invoicing/v1/documents.proto",
    "billing.invoicing.v1.InvoiceDocumentService",
  ),
  /** Progressive billing's lifetime usage (served by the invoicing service, at its address). */
  lifetimeUsage: serviceRef<LifetimeUsageServiceDefinition>(
    "billing/invoicing/v1/lifetime_usage.proto",
    "billing.invoicing.v1.LifetimeUsageService",
  ),
  /** Credit notes and invoice voids (served by the invoicing service, at its address). */
  creditNotes: serviceRef<CreditNoteServiceDefinition>(
    "billing/invoicing/v1/credit_notes.proto",
    "billing.invoicing.v1.CreditNoteService",
  ),
  wallet: serviceRef<WalletServiceDefinition>("billing/wallet/v1/wallet.proto", "billing.wallet.v1.WalletService"),
  /** A voided invoice's prepaid credits given back (served by the wallet service, at its address). */
  walletRecredits: serviceRef<WalletRecreditServiceDefinition>(
    "billing/wallet/v1/wallet_recredits.proto",
    "billing.wallet.v1.WalletRecreditService",
  ),
  /** A voided invoice's coupon credits given back (served by the catalog service, at its address). */
  appliedCouponRecredits: catalog<AppliedCouponRecreditServiceDefinition>(
    "applied_coupon_recredits.proto",
    "AppliedCouponRecreditService",
  ),
  payment: serviceRef<PaymentServiceDefinition>(
    "billing/payment/v1/payment.proto",
    "billing.payment.v1.PaymentService",
  ),
  webhooks: serviceRef<WebhookServiceDefinition>(
    "billing/payment/v1/webhooks.proto",
    "billing.payment.v1.WebhookService",
  ),
  paymentRequests: serviceRef<PaymentRequestServiceDefinition>(
    "billing/payment/v1/payment_requests.proto",
    "billing.payment.v1.PaymentRequestService",
  ),
  /** Usage priced for billing, in batches (served by the usage service, at its address). */
  chargeUsage: serviceRef<ChargeUsageServiceDefinition>(
    "billing/usage/v1/charge_usage.proto",
    "billing.usage.v1.ChargeUsageService",
  ),
  /** Pay-in-advance fees priced per ingested envelope (served by the usage service, at its address; called by invoicing). */
  advanceFees: serviceRef<AdvanceFeeServiceDefinition>(
    "billing/usage/v1/advance_fees.proto",
    "billing.usage.v1.AdvanceFeeService",
  ),
  /** Fees: GET/PUT/DELETE /fees (served by the invoicing service, at its address). */
  fees: serviceRef<FeeServiceDefinition>("billing/invoicing/v1/fees.proto", "billing.invoicing.v1.FeeService"),
  /** Raw events re-derived for invoice audits (served by the usage service, at its address). */
  usageAudit: serviceRef<UsageAuditServiceDefinition>(
    "billing/usage/v1/usage_audit.proto",
    "billing.usage.v1.UsageAuditService",
  ),
  /** Invoice audits and plan simulations (served by the invoicing service, at its address). */
  invoiceAudit: serviceRef<InvoiceAuditServiceDefinition>(
    "billing/invoicing/v1/invoice_audit.proto",
    "billing.invoicing.v1.InvoiceAuditService",
  ),
  /** Served by every backend service with time-driven work, at its own address (test clocks drive it). */
  scheduledWork: serviceRef<ScheduledWorkServiceDefinition>(
    "billing/common/v1/scheduled_work.proto",
    "billing.common.v1.ScheduledWorkService",
  ),
} as const;

export type ScheduledWorkRpc = ScheduledWorkServiceDefinition;
export type ChargeUsageRpc = ChargeUsageServiceDefinition;
export type AdvanceFeeRpc = AdvanceFeeServiceDefinition;
export type FeeRpc = FeeServiceDefinition;
export type UsageAuditRpc = UsageAuditServiceDefinition;
export type InvoiceAuditRpc = InvoiceAuditServiceDefinition;
export type InvoicingRpc = InvoiceServiceDefinition;
export type InvoiceDocumentRpc = InvoiceDocumentServiceDefinition;
export type LifetimeUsageRpc = LifetimeUsageServiceDefinition;
export type CreditNoteRpc = CreditNoteServiceDefinition;
export type WalletRpc = WalletServiceDefinition;
export type WalletRecreditRpc = WalletRecreditServiceDefinition;
export type AppliedCouponRecreditRpc = AppliedCouponRecreditServiceDefinition;
export type PaymentRpc = PaymentServiceDefinition;
export type WebhookRpc = WebhookServiceDefinition;
export type PaymentRequestRpc = PaymentRequestServiceDefinition;

export type CustomerRpc = CustomerServiceDefinition;
export type UsageRpc = UsageServiceDefinition;
export type CatalogRpc = {
  taxes: TaxServiceDefinition;
  billableMetrics: BillableMetricServiceDefinition;
  addOns: AddOnServiceDefinition;
  coupons: CouponServiceDefinition;
  appliedCoupons: AppliedCouponServiceDefinition;
  plans: PlanServiceDefinition;
  subscriptions: SubscriptionServiceDefinition;
  invoiceCustomSections: InvoiceCustomSectionServiceDefinition;
  features: FeatureServiceDefinition;
  entitlements: EntitlementServiceDefinition;
};
