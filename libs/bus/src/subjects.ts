/** Every subject the platform publishes: billing.<service>.<entity>.<past_tense_verb>. */
export const Subjects = {
  customer: {
    customerCreated: "billing.customer.customer.created",
    customerUpdated: "billing.customer.customer.updated",
    customerDeleted: "billing.customer.customer.deleted",
  },
  catalog: {
    subscriptionStarted: "billing.catalog.subscription.started",
    subscriptionUpdated: "billing.catalog.subscription.updated",
    subscriptionTerminated: "billing.catalog.subscription.terminated",
    subscriptionCanceled: "billing.catalog.subscription.canceled",
    planCreated: "billing.catalog.plan.created",
    planUpdated: "billing.catalog.plan.updated",
    planDeleted: "billing.catalog.plan.deleted",
    billableMetricCreated: "billing.catalog.billable_metric.created",
    billableMetricUpdated: "billing.catalog.billable_metric.updated",
    billableMetricDeleted: "billing.catalog.billable_metric.deleted",
  },
  usage: {
    eventIngested: "billing.usage.event.ingested",
  },
  invoicing: {
    invoiceCreated: "billing.invoicing.invoice.created",
    invoiceDrafted: "billing.invoicing.invoice.drafted",
    invoiceFinalized: "billing.invoicing.invoice.finalized",
    invoicePaymentStatusUpdated: "billing.invoicing.invoice.payment_status_updated",
    invoicePaymentOverdue: "billing.invoicing.invoice.payment_overdue",
    feeCreated: "billing.invoicing.fee.created",
    /** one fee per event (still consumed: envelopes published before advance_fees.created existed) */
    advanceFeeCreated: "billing.invoicing.advance_fee.created",
    advanceFeesCreated: "billing.invoicing.advance_fees.created",
    subscriptionUsageThresholdReached: "billing.invoicing.subscription.usage_threshold_reached",
    invoiceVoided: "billing.invoicing.invoice.voided",
    creditNoteCreated: "billing.invoicing.credit_note.created",
    creditNoteUpdated: "billing.invoicing.credit_note.updated",
    creditNoteRefundRequested: "billing.invoicing.credit_note.refund_requested",
    invoiceDeleted: "billing.invoicing.invoice.deleted",
    creditNoteGenerated: "billing.invoicing.credit_note.generated",
    invoiceOneOffCreated: "billing.invoicing.invoice.one_off_created",
    /** a finalized invoice's PDF exists (Lago's invoice.generated) */
    invoiceGenerated: "billing.invoicing.invoice.generated",
  },
  wallet: {
    walletCreated: "billing.wallet.wallet.created",
    walletUpdated: "billing.wallet.wallet.updated",
    walletTerminated: "billing.wallet.wallet.terminated",
    walletDepletedOngoingBalance: "billing.wallet.wallet.depleted_ongoing_balance",
    transactionCreated: "billing.wallet.wallet_transaction.created",
    transactionUpdated: "billing.wallet.wallet_transaction.updated",
  },
  payment: {
    paymentCreated: "billing.payment.payment.created",
    paymentRequiresAction: "billing.payment.payment.requires_action",
    paymentSucceeded: "billing.payment.payment.succeeded",
    paymentFailed: "billing.payment.payment.failed",
    paymentOverpaid: "billing.payment.payment.overpaid",
    paymentRequestCreated: "billing.payment.payment_request.created",
    paymentRequestPaymentStatusUpdated: "billing.payment.payment_request.payment_status_updated",
    refundFailed: "billing.payment.refund.failed",
  },
} as const;

/** One stream per producing service, holding all of its subjects. */
export const Streams = {
  customer: { name: "BILLING_CUSTOMER", subjects: ["billing.customer.>"] },
  catalog: { name: "BILLING_CATALOG", subjects: ["billing.catalog.>"] },
  usage: { name: "BILLING_USAGE", subjects: ["billing.usage.>"] },
  invoicing: { name: "BILLING_INVOICING", subjects: ["billing.invoicing.>"] },
  wallet: { name: "BILLING_WALLET", subjects: ["billing.wallet.>"] },
  payment: { name: "BILLING_PAYMENT", subjects: ["billing.payment.>"] },
} as const;

export type StreamSpec = { name: string; subjects: readonly string[] };
