import { z } from "zod";
import {
  addOnObject,
  appliedCouponObject,
  appliedCouponObjectExtended,
  billableMetricObject,
  billingEntityObject,
  couponObject,
  customerObject,
  customerUsageObject,
  eventObject,
  featureObject,
  feeEstimateObject,
  listedFeeObject,
  invoiceCustomSectionObject,
  invoiceObject,
  paginationMeta,
  paymentObject,
  paymentRequestObject,
  planEntitlementObject,
  planObject,
  subscriptionEntitlementObject,
  subscriptionObject,
  subscriptionObjectExtended,
  invoiceAuditObject,
  lifetimeUsageObject,
  planSimulationObject,
  taxObject,
  testClockObject,
  walletObject,
  walletTransactionObject,
  webhookEndpointObject,
  webhookObject,
} from "@billing/views";
import { addOnCreateSchema, addOnUpdateSchema } from "../routes/add-ons/validators";
import { appliedCouponSchema } from "../routes/applied-coupons/validators";
import { billableMetricCreateSchema, billableMetricUpdateSchema } from "../routes/billable-metrics/validators";
import { billingEntityUpdateSchema } from "../routes/billing-entities/validators";
import { couponCreateSchema, couponUpdateSchema } from "../routes/coupons/validators";
import { customerInputSchema } from "../routes/customers/validators";
import { entitlementsSchema, subscriptionStatusQuery } from "../routes/entitlements/validators";
import { estimateEventSchema } from "../routes/estimate-fees/validators";
import { featureCreateSchema, featureUpdateSchema } from "../routes/features/validators";
import {
  invoiceCustomSectionCreateSchema,
  invoiceCustomSectionUpdateSchema,
} from "../routes/invoice-custom-sections/validators";
import { currentUsageQuery, invoiceListQuery, invoiceUpdate, pastUsageQuery } from "../routes/invoices/validators";
import { signedLinkQuery } from "../routes/documents/validators";
import { feeListQuery, feeUpdate } from "../routes/fees/validators";
import { lifetimeUsageUpdateSchema } from "../routes/lifetime-usage/validators";
import { creditNoteOperations } from "./credit-note-operations";
import { simulatePlanInput } from "../routes/invoice-audit/validators";
import { paymentRequestCreateSchema, paymentRequestListQuery } from "../routes/payment-requests/validators";
import { paymentCreateSchema } from "../routes/payments/validators";
import { planCreateSchema, planUpdateSchema } from "../routes/plans/validators";
import {
  listQuery,
  statusQuery,
  subscriptionCreateSchema,
  subscriptionUpdateSchema,
  terminationQuery,
} from "../routes/subscriptions/validators";
import { taxCreateSchema, taxUpdateSchema } from "../routes/taxes/validators";
import { advanceSchema } from "../routes/test-clock/validators";
import { walletCreateSchema, walletSchema, walletTransactionSchema } from "../routes/wallets/validators";
import { webhookEndpointSchema, webhookListQuery } from "../routes/webhooks/validators";
import {
  appliedCouponListQuery,
  eventInput,
  featureListQuery,
  pageParams,
  paymentListQuery,
  walletListQuery,
  walletTransactionListQuery,
} from "./inputs";

/**
 * Every route the gateway serves, as the OpenAPI document describes it: request bodies and queries
 * are the zod validators the routes parse them with, answers the response schemas the presenters
 * are checked against (`@billing/views`). A route added to a router must be added here: the
 * gateway's openapi test compares this table with the routers.
 */
export interface Operation {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template, relative to /api/v1 unless `outsideApi` */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** the JSON body, its root key included */
  body?: z.ZodType;
  query?: z.ZodObject;
  /** the 200 answer */
  response: z.ZodType;
  /** the 200 answer's media type when it is not JSON */
  mediaType?: "text/plain" | "text/html" | "application/pdf";
  /** answered without an API key */
  public?: boolean;
  /** a public route that can refuse (403, 404 in Lago's error shape) */
  refuses?: boolean;
  /** served at the root (/health), not under /api/v1 */
  outsideApi?: boolean;
}

/** `{"<root>": <schema>}`: Lago wraps every body and answer in the resource's name. */
const rooted = (root: string, schema: z.ZodType) => z.object({ [root]: schema });
/** `{"<plural>": [item…], "meta": PaginationMeta}`. */
const paginated = (plural: string, item: z.ZodType) => z.object({ [plural]: z.array(item), meta: paginationMeta });
const withPage = (query?: z.ZodObject) => (query ? z.object({ ...pageParams.shape, ...query.shape }) : pageParams);

/** The five routes of a catalog resource addressed by its code (`codeResourceRoutes`). */
function codeResource(
  tag: string,
  names: { root: string; plural: string; one: string; many: string },
  object: z.ZodType,
  schemas: { create: z.ZodType; update: z.ZodType },
): Operation[] {
  const { root, plural, one, many } = names;
  const item = `/${plural}/{code}`;
  return [
    {
      method: "post",
      path: `/${plural}`,
      operationId: `create${one}`,
      summary: `Create a ${root.replace(/_/g, " ")}`,
      tag,
      body: rooted(root, schemas.create),
      response: rooted(root, object),
    },
    {
      method: "get",
      path: `/${plural}`,
      operationId: `findAll${many}`,
      summary: `List ${plural.replace(/_/g, " ")}`,
      tag,
      query: pageParams,
      response: paginated(plural, object),
    },
    {
      method: "get",
      path: item,
      operationId: `find${one}`,
      summary: `Retrieve a ${root.replace(/_/g, " ")}`,
      tag,
      response: rooted(root, object),
    },
    {
      method: "put",
      path: item,
      operationId: `update${one}`,
      summary: `Update a ${root.replace(/_/g, " ")}`,
      tag,
      body: rooted(root, schemas.update),
      response: rooted(root, object),
    },
    {
      method: "delete",
      path: item,
      operationId: `destroy${one}`,
      summary: `Delete a ${root.replace(/_/g, " ")}`,
      tag,
      response: rooted(root, object),
    },
  ];
}

const customers: Operation[] = [
  {
    method: "post",
    path: "/customers",
    operationId: "createCustomer",
    summary: "Create or update a customer",
    tag: "Customers",
    description: "An upsert by `external_id`: a known customer is updated with the fields sent.",
    body: rooted("customer", customerInputSchema),
    response: rooted("customer", customerObject),
  },
  {
    method: "get",
    path: "/customers",
    operationId: "findAllCustomers",
    summary: "List customers",
    tag: "Customers",
    query: pageParams,
    response: paginated("customers", customerObject),
  },
  {
    method: "get",
    path: "/customers/{external_id}",
    operationId: "findCustomer",
    summary: "Retrieve a customer",
    tag: "Customers",
    response: rooted("customer", customerObject),
  },
  {
    method: "delete",
    path: "/customers/{external_id}",
    operationId: "destroyCustomer",
    summary: "Delete a customer",
    tag: "Customers",
    response: rooted("customer", customerObject),
  },
  {
    method: "get",
    path: "/customers/{external_customer_id}/current_usage",
    operationId: "findCustomerCurrentUsage",
    summary: "A subscription's usage this period",
    tag: "Customers",
    query: currentUsageQuery,
    response: rooted("customer_usage", customerUsageObject),
  },
  {
    method: "get",
    path: "/customers/{external_customer_id}/past_usage",
    operationId: "findAllCustomerPastUsage",
    summary: "A subscription's usage of past periods",
    tag: "Customers",
    query: withPage(pastUsageQuery),
    response: paginated("usage_periods", customerUsageObject),
  },
];

const billingEntities: Operation[] = [
  {
    method: "get",
    path: "/billing_entities",
    operationId: "listBillingEntities",
    summary: "List billing entities",
    tag: "Billing entities",
    response: z.object({ billing_entities: z.array(billingEntityObject) }),
  },
  {
    method: "get",
    path: "/billing_entities/{code}",
    operationId: "getBillingEntity",
    summary: "Retrieve a billing entity",
    tag: "Billing entities",
    response: rooted("billing_entity", billingEntityObject),
  },
  {
    method: "put",
    path: "/billing_entities/{code}",
    operationId: "updateBillingEntity",
    summary: "Update a billing entity",
    tag: "Billing entities",
    body: rooted("billing_entity", billingEntityUpdateSchema),
    response: rooted("billing_entity", billingEntityObject),
  },
];

const catalog: Operation[] = [
  ...codeResource("Taxes", { root: "tax", plural: "taxes", one: "Tax", many: "Taxes" }, taxObject, {
    create: taxCreateSchema,
    update: taxUpdateSchema,
  }),
  ...codeResource(
    "Billable metrics",
    { root: "billable_metric", plural: "billable_metrics", one: "BillableMetric", many: "BillableMetrics" },
    billableMetricObject,
    {
      create: billableMetricCreateSchema,
      update: billableMetricUpdateSchema,
    },
  ),
  ...codeResource("Add-ons", { root: "add_on", plural: "add_ons", one: "AddOn", many: "AddOns" }, addOnObject, {
    create: addOnCreateSchema,
    update: addOnUpdateSchema,
  }),
  ...codeResource("Coupons", { root: "coupon", plural: "coupons", one: "Coupon", many: "Coupons" }, couponObject, {
    create: couponCreateSchema,
    update: couponUpdateSchema,
  }),
  ...codeResource("Plans", { root: "plan", plural: "plans", one: "Plan", many: "Plans" }, planObject, {
    create: planCreateSchema,
    update: planUpdateSchema,
  }),
  ...codeResource(
    "Invoice custom sections",
    {
      root: "invoice_custom_section",
      plural: "invoice_custom_sections",
      one: "InvoiceCustomSection",
      many: "InvoiceCustomSections",
    },
    invoiceCustomSectionObject,
    { create: invoiceCustomSectionCreateSchema, update: invoiceCustomSectionUpdateSchema },
  ),
];

const appliedCoupons: Operation[] = [
  {
    method: "post",
    path: "/applied_coupons",
    operationId: "applyCoupon",
    summary: "Apply a coupon to a customer",
    tag: "Coupons",
    body: rooted("applied_coupon", appliedCouponSchema),
    response: rooted("applied_coupon", appliedCouponObject),
  },
  {
    method: "get",
    path: "/applied_coupons",
    operationId: "findAllAppliedCoupons",
    summary: "List applied coupons",
    tag: "Coupons",
    query: withPage(appliedCouponListQuery),
    response: paginated("applied_coupons", appliedCouponObjectExtended),
  },
  {
    method: "get",
    path: "/customers/{external_customer_id}/applied_coupons",
    operationId: "findAllCustomerAppliedCoupons",
    summary: "List a customer's applied coupons",
    tag: "Coupons",
    query: withPage(appliedCouponListQuery.omit({ external_customer_id: true })),
    response: paginated("applied_coupons", appliedCouponObjectExtended),
  },
  {
    method: "delete",
    path: "/customers/{external_customer_id}/applied_coupons/{applied_coupon_id}",
    operationId: "deleteAppliedCoupon",
    summary: "Terminate an applied coupon",
    tag: "Coupons",
    response: rooted("applied_coupon", appliedCouponObject),
  },
];

const subscriptionStatus = z.object({ status: statusQuery });
const subscriptions: Operation[] = [
  {
    method: "post",
    path: "/subscriptions",
    operationId: "createSubscription",
    summary: "Subscribe a customer to a plan",
    tag: "Subscriptions",
    description:
      "With the `external_id` of a live subscription and another plan: an upgrade (at once) or a downgrade (at the period's end).",
    body: rooted("subscription", subscriptionCreateSchema),
    response: rooted("subscription", subscriptionObjectExtended),
  },
  {
    method: "get",
    path: "/subscriptions",
    operationId: "findAllSubscriptions",
    summary: "List subscriptions",
    tag: "Subscriptions",
    query: withPage(listQuery),
    response: paginated("subscriptions", subscriptionObject),
  },
  {
    method: "get",
    path: "/customers/{external_customer_id}/subscriptions",
    operationId: "findAllCustomerSubscriptions",
    summary: "List a customer's subscriptions",
    tag: "Subscriptions",
    query: withPage(listQuery.omit({ external_customer_id: true })),
    response: paginated("subscriptions", subscriptionObject),
  },
  {
    method: "get",
    path: "/subscriptions/{external_id}",
    operationId: "findSubscription",
    summary: "Retrieve a subscription",
    tag: "Subscriptions",
    query: subscriptionStatus,
    response: rooted("subscription", subscriptionObjectExtended),
  },
  {
    method: "put",
    path: "/subscriptions/{external_id}",
    operationId: "updateSubscription",
    summary: "Update a subscription",
    tag: "Subscriptions",
    query: subscriptionStatus,
    body: rooted("subscription", subscriptionUpdateSchema),
    response: rooted("subscription", subscriptionObjectExtended),
  },
  {
    method: "delete",
    path: "/subscriptions/{external_id}",
    operationId: "destroySubscription",
    summary: "Terminate a subscription",
    tag: "Subscriptions",
    description:
      "A pending subscription is canceled; an active one is terminated now, with its termination invoice unless `on_termination_invoice=skip`.",
    query: terminationQuery,
    response: rooted("subscription", subscriptionObjectExtended),
  },
];

const entitlementsBody = rooted("entitlements", entitlementsSchema);
const planEntitlements = z.object({ entitlements: z.array(planEntitlementObject) });
const features: Operation[] = [
  {
    method: "post",
    path: "/features",
    operationId: "createFeature",
    summary: "Create a feature",
    tag: "Features",
    body: rooted("feature", featureCreateSchema),
    response: rooted("feature", featureObject),
  },
  {
    method: "get",
    path: "/features",
    operationId: "findAllFeatures",
    summary: "List features",
    tag: "Features",
    query: withPage(featureListQuery),
    response: paginated("features", featureObject),
  },
  {
    method: "get",
    path: "/features/{code}",
    operationId: "findFeature",
    summary: "Retrieve a feature",
    tag: "Features",
    response: rooted("feature", featureObject),
  },
  {
    method: "put",
    path: "/features/{code}",
    operationId: "updateFeature",
    summary: "Update a feature",
    tag: "Features",
    body: rooted("feature", featureUpdateSchema),
    response: rooted("feature", featureObject),
  },
  {
    method: "delete",
    path: "/features/{code}",
    operationId: "destroyFeature",
    summary: "Delete a feature",
    tag: "Features",
    response: rooted("feature", featureObject),
  },
  {
    method: "delete",
    path: "/features/{code}/privileges/{privilege_code}",
    operationId: "deleteFeaturePrivilege",
    summary: "Delete a feature's privilege",
    tag: "Features",
    response: rooted("feature", featureObject),
  },
  {
    method: "get",
    path: "/plans/{code}/entitlements",
    operationId: "findAllEntitlements",
    summary: "List a plan's entitlements",
    tag: "Entitlements",
    response: planEntitlements,
  },
  {
    method: "post",
    path: "/plans/{code}/entitlements",
    operationId: "createEntitlement",
    summary: "Replace a plan's entitlements",
    tag: "Entitlements",
    body: entitlementsBody,
    response: planEntitlements,
  },
  {
    method: "patch",
    path: "/plans/{code}/entitlements",
    operationId: "updateEntitlement",
    summary: "Add to or change a plan's entitlements",
    tag: "Entitlements",
    body: entitlementsBody,
    response: planEntitlements,
  },
  {
    method: "get",
    path: "/plans/{code}/entitlements/{feature_code}",
    operationId: "findEntitlement",
    summary: "Retrieve a plan's entitlement",
    tag: "Entitlements",
    response: rooted("entitlement", planEntitlementObject),
  },
  {
    method: "delete",
    path: "/plans/{code}/entitlements/{feature_code}",
    operationId: "destroyEntitlement",
    summary: "Remove a plan's entitlement",
    tag: "Entitlements",
    response: rooted("entitlement", planEntitlementObject),
  },
  {
    method: "delete",
    path: "/plans/{code}/entitlements/{feature_code}/privileges/{privilege_code}",
    operationId: "removeEntitlementPrivilege",
    summary: "Remove a privilege from a plan's entitlement",
    tag: "Entitlements",
    response: rooted("entitlement", planEntitlementObject),
  },
  {
    method: "get",
    path: "/subscriptions/{external_id}/entitlements",
    operationId: "findAllSubscriptionEntitlements",
    summary: "List a subscription's entitlements",
    tag: "Entitlements",
    query: z.object({
      subscription_status: subscriptionStatusQuery,
      status: subscriptionStatusQuery.describe("the older name of subscription_status"),
    }),
    response: z.object({ entitlements: z.array(subscriptionEntitlementObject) }),
  },
];

const testClock: Operation[] = [
  {
    method: "get",
    path: "/test_clock",
    operationId: "getTestClock",
    summary: "A sandbox organization's clock",
    tag: "Test clock",
    description: "Not in Lago. Sandbox organizations only: their time stands still until advanced.",
    response: rooted("test_clock", testClockObject),
  },
  {
    method: "post",
    path: "/test_clock/advance",
    operationId: "advanceTestClock",
    summary: "Move a sandbox organization's clock forward",
    tag: "Test clock",
    description:
      "Answers at once (`advancing`); the clock then stops at every instant where some service has work due, and returns to `ready`.",
    body: rooted("test_clock", advanceSchema),
    response: rooted("test_clock", testClockObject),
  },
];

const invoices: Operation[] = [
  {
    method: "get",
    path: "/invoices",
    operationId: "findAllInvoices",
    summary: "List invoices",
    tag: "Invoices",
    description: "Newest first. `statuses[]` and `payment_statuses[]` may be repeated.",
    query: withPage(invoiceListQuery),
    response: paginated("invoices", invoiceObject),
  },
  {
    method: "get",
    path: "/invoices/{id}",
    operationId: "findInvoice",
    summary: "Retrieve an invoice",
    tag: "Invoices",
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "put",
    path: "/invoices/{id}",
    operationId: "updateInvoice",
    summary: "Update an invoice's payment status or metadata",
    tag: "Invoices",
    body: rooted("invoice", invoiceUpdate),
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "put",
    path: "/invoices/{id}/finalize",
    operationId: "finalizeInvoice",
    summary: "Finalize a draft invoice",
    tag: "Invoices",
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "put",
    path: "/invoices/{id}/refresh",
    operationId: "refreshInvoice",
    summary: "Recompute a draft invoice",
    tag: "Invoices",
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "post",
    path: "/invoices/{id}/download",
    operationId: "downloadInvoice",
    summary: "Generate an invoice's PDF",
    tag: "Invoices",
    description:
      "A finalized invoice's PDF is generated if it is not yet (then kept: the same bytes ever after); the invoice is answered with its `file_url`. A draft is answered as it is.",
    response: rooted("invoice", invoiceObject),
  },
  {
    method: "get",
    path: "/invoices/{id}/pdf",
    operationId: "getInvoicePdf",
    summary: "An invoice's PDF",
    tag: "Invoices",
    description:
      "Not in Lago: the stored PDF of a finalized invoice (generated at the first request), with the API key.",
    mediaType: "application/pdf",
    response: z.string(),
  },
  {
    method: "get",
    path: "/documents/{kind}/{organization_id}/{file}",
    operationId: "getSignedDocument",
    summary: "A document by its signed link",
    tag: "Invoices",
    description:
      "Not in Lago: an invoice's or credit note's `file_url` (kind `invoice` or `credit_note`). No API key: the link's HMAC signature and expiry; forged or expired → 403 (`document_link_invalid`, `document_link_expired`).",
    query: signedLinkQuery,
    mediaType: "application/pdf",
    response: z.string(),
    public: true,
    refuses: true,
  },
  {
    method: "get",
    path: "/invoices/{id}/audit",
    operationId: "auditInvoice",
    summary: "Re-derive a finalized invoice from its raw events",
    tag: "Invoices",
    description:
      "Not in Lago. Every charge fee of a finalized invoice re-derived from the raw events stored for its period and the charge snapshot it was priced from (model, properties, filters, groups, aggregation), beside the invoiced units and amount: `match` per fee and for the invoice, the reason of any mismatch, and the events acknowledged after the fee's usage was read (late: not billed). Subscription, fixed-charge and commitment fees are listed as `not_derived_from_events`. Nothing is stored. 405 `invoice_not_finalized` for a draft.",
    response: rooted("invoice_audit", invoiceAuditObject),
  },
  {
    method: "post",
    path: "/customers/{external_customer_id}/simulate_plan",
    operationId: "simulatePlan",
    summary: "Price a customer's past periods on another plan",
    tag: "Invoices",
    description:
      "Not in Lago. Each subscription line of the customer's finalized subscription invoices (issued between `from` and `to`, inclusive; the 100 newest at most) billed again for the same billing entry on the plan `plan_code`: its base fee, spans and fixed charges as billing computes them, its charges re-derived from the raw events stored for the span (those acknowledged when the real invoice read its usage) on the plan's charges and the metrics as they are now. Fees before coupons and taxes, beside what the line was billed, with the difference per period and in total. Nothing is stored or sent. 422 `currencies_does_not_match` when the plan's currency is not the invoices'.",
    body: simulatePlanInput,
    response: rooted("plan_simulation", planSimulationObject),
  },
];

const events: Operation[] = [
  {
    method: "post",
    path: "/events",
    operationId: "createEvent",
    summary: "Send a usage event",
    tag: "Events",
    body: rooted("event", eventInput),
    response: rooted("event", eventObject),
  },
  {
    method: "post",
    path: "/events/batch",
    operationId: "createBatchEvents",
    summary: "Send up to 100 usage events",
    tag: "Events",
    description: "All or nothing: a refused event's errors are keyed by its index.",
    body: z.object({ events: z.array(eventInput).min(1).max(100) }),
    response: z.object({ events: z.array(eventObject) }),
  },
  {
    method: "post",
    path: "/events/estimate_fees",
    operationId: "eventEstimateFees",
    summary: "Estimate the pay-in-advance fees of an event",
    tag: "Events",
    body: rooted("event", estimateEventSchema),
    response: z.object({ fees: z.array(feeEstimateObject) }),
  },
];

const wallets: Operation[] = [
  {
    method: "post",
    path: "/wallets",
    operationId: "createWallet",
    summary: "Create a wallet",
    tag: "Wallets",
    body: rooted("wallet", walletCreateSchema),
    response: rooted("wallet", walletObject),
  },
  {
    method: "get",
    path: "/wallets",
    operationId: "findAllWallets",
    summary: "List wallets",
    tag: "Wallets",
    query: withPage(walletListQuery),
    response: paginated("wallets", walletObject),
  },
  {
    method: "get",
    path: "/wallets/{id}",
    operationId: "findWallet",
    summary: "Retrieve a wallet",
    tag: "Wallets",
    response: rooted("wallet", walletObject),
  },
  {
    method: "put",
    path: "/wallets/{id}",
    operationId: "updateWallet",
    summary: "Update a wallet",
    tag: "Wallets",
    body: rooted("wallet", walletSchema),
    response: rooted("wallet", walletObject),
  },
  {
    method: "delete",
    path: "/wallets/{id}",
    operationId: "destroyWallet",
    summary: "Terminate a wallet",
    tag: "Wallets",
    response: rooted("wallet", walletObject),
  },
  {
    method: "post",
    path: "/wallet_transactions",
    operationId: "createWalletTransaction",
    summary: "Top up or void a wallet's credits",
    tag: "Wallets",
    description:
      "Granted and voided credits settle at once; paid credits are invoiced and settle when the invoice is paid.",
    body: rooted("wallet_transaction", walletTransactionSchema),
    response: z.object({ wallet_transactions: z.array(walletTransactionObject) }),
  },
  {
    method: "get",
    path: "/wallet_transactions/{id}",
    operationId: "findWalletTransaction",
    summary: "Retrieve a wallet transaction",
    tag: "Wallets",
    response: rooted("wallet_transaction", walletTransactionObject),
  },
  {
    method: "get",
    path: "/wallets/{id}/wallet_transactions",
    operationId: "findAllWalletTransactions",
    summary: "List a wallet's transactions",
    tag: "Wallets",
    query: withPage(walletTransactionListQuery),
    response: paginated("wallet_transactions", walletTransactionObject),
  },
];

const payments: Operation[] = [
  {
    method: "post",
    path: "/payments",
    operationId: "createPayment",
    summary: "Record a manual payment",
    tag: "Payments",
    body: rooted("payment", paymentCreateSchema),
    response: rooted("payment", paymentObject),
  },
  {
    method: "get",
    path: "/payments",
    operationId: "findAllPayments",
    summary: "List payments",
    tag: "Payments",
    query: withPage(paymentListQuery),
    response: paginated("payments", paymentObject),
  },
  {
    method: "get",
    path: "/payments/{id}",
    operationId: "findPayment",
    summary: "Retrieve a payment",
    tag: "Payments",
    response: rooted("payment", paymentObject),
  },
  {
    method: "post",
    path: "/invoices/{id}/retry_payment",
    operationId: "retryPayment",
    summary: "Charge a finalized invoice again",
    tag: "Payments",
    response: z.object({}),
  },
  {
    method: "post",
    path: "/sandbox/payments/{id}/confirm",
    operationId: "confirmSandboxPayment",
    summary: "Complete a sandbox payment that requires an action",
    description: "Not in Lago: the built-in `sandbox` provider's stand-in for a customer completing 3-D Secure.",
    tag: "Payments",
    response: rooted("payment", paymentObject),
  },
  {
    method: "post",
    path: "/payment_requests",
    operationId: "createPaymentRequest",
    summary: "Request payment of a customer's overdue invoices",
    tag: "Payment requests",
    body: rooted("payment_request", paymentRequestCreateSchema),
    response: rooted("payment_request", paymentRequestObject),
  },
  {
    method: "get",
    path: "/payment_requests",
    operationId: "findAllPaymentRequests",
    summary: "List payment requests",
    tag: "Payment requests",
    query: withPage(paymentRequestListQuery),
    response: paginated("payment_requests", paymentRequestObject),
  },
  {
    method: "get",
    path: "/payment_requests/{id}",
    operationId: "findPaymentRequest",
    summary: "Retrieve a payment request",
    tag: "Payment requests",
    response: rooted("payment_request", paymentRequestObject),
  },
];

const webhooks: Operation[] = [
  {
    method: "post",
    path: "/webhook_endpoints",
    operationId: "createWebhookEndpoint",
    summary: "Add a webhook endpoint",
    tag: "Webhooks",
    body: rooted("webhook_endpoint", webhookEndpointSchema),
    response: rooted("webhook_endpoint", webhookEndpointObject),
  },
  {
    method: "get",
    path: "/webhook_endpoints",
    operationId: "findAllWebhookEndpoints",
    summary: "List webhook endpoints",
    tag: "Webhooks",
    query: pageParams,
    response: paginated("webhook_endpoints", webhookEndpointObject),
  },
  {
    method: "get",
    path: "/webhook_endpoints/{id}",
    operationId: "findWebhookEndpoint",
    summary: "Retrieve a webhook endpoint",
    tag: "Webhooks",
    response: rooted("webhook_endpoint", webhookEndpointObject),
  },
  {
    method: "put",
    path: "/webhook_endpoints/{id}",
    operationId: "updateWebhookEndpoint",
    summary: "Update a webhook endpoint",
    tag: "Webhooks",
    body: rooted("webhook_endpoint", webhookEndpointSchema),
    response: rooted("webhook_endpoint", webhookEndpointObject),
  },
  {
    method: "delete",
    path: "/webhook_endpoints/{id}",
    operationId: "destroyWebhookEndpoint",
    summary: "Delete a webhook endpoint",
    tag: "Webhooks",
    response: rooted("webhook_endpoint", webhookEndpointObject),
  },
  {
    method: "get",
    path: "/webhooks/json_public_key",
    operationId: "fetchPublicKey",
    summary: "The public key of the organization's jwt-signed webhooks",
    tag: "Webhooks",
    response: rooted("webhook", z.object({ public_key: z.string().describe("RSA public key, PEM, base64-encoded") })),
  },
  {
    method: "get",
    path: "/webhooks/public_key",
    operationId: "fetchPublicKeyText",
    summary: "The public key of the organization's jwt-signed webhooks, as text (deprecated)",
    tag: "Webhooks",
    mediaType: "text/plain",
    response: z.string(),
  },
  {
    method: "get",
    path: "/webhooks/hmac_key",
    operationId: "fetchHmacKey",
    summary: "The key of hmac-signed webhooks",
    tag: "Webhooks",
    description: "Not in Lago's document: the organization's HMAC key, which signs `X-Lago-Signature`.",
    response: rooted("webhook", z.object({ hmac_key: z.string() })),
  },
  {
    method: "get",
    path: "/webhooks",
    operationId: "findAllWebhooks",
    summary: "The webhook delivery log",
    tag: "Webhooks",
    description: "Not in Lago's document: every delivery, its attempts and its payload.",
    query: withPage(webhookListQuery),
    response: paginated("webhooks", webhookObject),
  },
  {
    method: "get",
    path: "/webhooks/{id}",
    operationId: "findWebhook",
    summary: "Retrieve a delivery",
    tag: "Webhooks",
    response: rooted("webhook", webhookObject),
  },
  {
    method: "post",
    path: "/webhooks/{id}/retry",
    operationId: "retryWebhook",
    summary: "Send a delivery again",
    tag: "Webhooks",
    response: rooted("webhook", webhookObject),
  },
];

const platform: Operation[] = [
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This document",
    tag: "Platform",
    public: true,
    description: "The OpenAPI 3.1 document of the API, generated from the gateway's zod schemas. No API key needed.",
    response: z.record(z.string(), z.unknown()),
  },
  {
    method: "get",
    path: "/health",
    operationId: "getHealth",
    summary: "Liveness and readiness",
    tag: "Platform",
    public: true,
    outsideApi: true,
    description: "200 when every backend service answers its gRPC health check, 503 (same body) otherwise.",
    response: z.object({
      status: z.enum(["ok", "degraded"]),
      services: z.record(z.string(), z.enum(["serving", "unavailable"])),
    }),
  },
  {
    method: "get",
    path: "/docs/",
    operationId: "getDocs",
    summary: "This documentation, browsable",
    tag: "Platform",
    public: true,
    outsideApi: true,
    description: "Swagger UI on /api/v1/openapi.json, its assets served by the gateway (`/docs` redirects here).",
    mediaType: "text/html",
    response: z.string(),
  },
];

const fees: Operation[] = [
  {
    method: "get",
    path: "/fees",
    operationId: "findAllFees",
    summary: "List fees",
    tag: "Fees",
    description:
      "The pay-in-advance fees usage events created (on their own invoice or waiting for the next periodic one), newest first.",
    query: withPage(feeListQuery),
    response: paginated("fees", listedFeeObject),
  },
  {
    method: "get",
    path: "/fees/{id}",
    operationId: "findFee",
    summary: "Retrieve a fee",
    tag: "Fees",
    description: "A pay-in-advance fee, or any fee of an invoice.",
    response: rooted("fee", listedFeeObject),
  },
  {
    method: "put",
    path: "/fees/{id}",
    operationId: "updateFee",
    summary: "Update a pay-in-advance fee's payment status",
    tag: "Fees",
    description: "Only a fee not on an invoice (an invoiced fee follows its invoice: 405 `invoiced_fee`).",
    body: rooted("fee", feeUpdate),
    response: rooted("fee", listedFeeObject),
  },
  {
    method: "delete",
    path: "/fees/{id}",
    operationId: "deleteFee",
    summary: "Delete a pay-in-advance fee waiting for its invoice",
    tag: "Fees",
    description: "An invoiced fee cannot be deleted (405 `invoiced_fee`).",
    response: rooted("fee", listedFeeObject),
  },
];

const lifetimeUsage: Operation[] = [
  {
    method: "get",
    path: "/subscriptions/{external_id}/lifetime_usage",
    operationId: "getSubscriptionLifetimeUsage",
    summary: "A subscription's lifetime usage",
    tag: "Subscriptions",
    description:
      "Historical + invoiced + current usage, and the progress against the usage thresholds (progressive billing).",
    response: rooted("lifetime_usage", lifetimeUsageObject),
  },
  {
    method: "put",
    path: "/subscriptions/{external_id}/lifetime_usage",
    operationId: "updateSubscriptionLifetimeUsage",
    summary: "Set a subscription's historical usage",
    tag: "Subscriptions",
    body: rooted("lifetime_usage", lifetimeUsageUpdateSchema),
    response: rooted("lifetime_usage", lifetimeUsageObject),
  },
];

export const OPERATIONS: readonly Operation[] = [
  ...customers,
  ...billingEntities,
  ...catalog,
  ...appliedCoupons,
  ...subscriptions,
  ...features,
  ...testClock,
  ...invoices,
  ...fees,
  ...events,
  ...wallets,
  ...payments,
  ...webhooks,
  ...platform,
  ...lifetimeUsage,
  ...creditNoteOperations,
];
