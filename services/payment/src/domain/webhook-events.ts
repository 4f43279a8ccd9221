import { Subjects } from "@billing/codes";
import type { EventData, Subject } from "@billing/contracts";

/**
 * Which domain events become which of Lago's webhooks. Each names the object it carries and how
 * to find it again (the object is sent as the API returns it, read from its owner when the
 * delivery is made). Lago's `invoice.generated` and `credit_note.generated` say a PDF exists (ours
 * are rendered at their first download); `fee.created` is each pay-in-advance fee.
 */
export type ObjectRef =
  | { kind: "customer"; externalId: string }
  | { kind: "subscription"; externalId: string; status: string }
  | { kind: "plan"; code: string }
  | { kind: "billable_metric"; code: string }
  | { kind: "invoice"; id: string }
  | { kind: "credit_note"; id: string }
  | { kind: "wallet"; id: string }
  | { kind: "wallet_transaction"; id: string }
  | { kind: "payment"; id: string }
  | { kind: "payment_request"; id: string }
  | { kind: "fee"; id: string }
  /** no object to read again: the event's own view is the payload */
  | { kind: "event_view" };

export interface WebhookEvent {
  webhookType: string;
  /** the payload's key for its object, and Lago's object_type */
  objectType: string;
  ref: ObjectRef;
  /** the object's svc id (orders the deliveries of one object) */
  objectId: string;
  /** what the event itself says of the object (sent when the object is gone, e.g. a deleted plan) */
  view: unknown;
  /** the name the webhook's own event id derives from, when one message carries several objects (deliveries derive from it); else the message's id */
  eventName?: string;
}

const S = Subjects;

/** How the events of one subject become a webhook: its type, its object's key, and the object's reference, id and view. */
interface Rule {
  type: string;
  object: string;
  event(data: unknown): WebhookEvent;
}

const rules: Record<string, Rule> = {};
/** The rule of the subjects `subject` names, each function reading the data its schema parsed (`EventData<S>`). */
const rule = <S extends Subject>(
  subject: S,
  type: string,
  object: string,
  ref: (d: EventData<S>) => ObjectRef,
  id: (d: EventData<S>) => string,
  view: (d: EventData<S>) => unknown,
) => {
  rules[subject] = {
    type,
    object,
    event: (data) => {
      // webhookEventsOf is handed the data eventData parsed with this subject's own schema
      const d = data as EventData<S>;
      return { webhookType: type, objectType: object, ref: ref(d), objectId: id(d), view: view(d) };
    },
  };
};

for (const [subject, type] of [
  [S.customer.customerCreated, "customer.created"],
  [S.customer.customerUpdated, "customer.updated"],
] as const) {
  rule(
    subject,
    type,
    "customer",
    (d) => ({ kind: "customer", externalId: d.customer.external_id }),
    (d) => d.customer.svc_id,
    (d) => d.customer,
  );
}
for (const [subject, type] of [
  [S.catalog.subscriptionStarted, "subscription.started"],
  [S.catalog.subscriptionUpdated, "subscription.updated"],
  [S.catalog.subscriptionTerminated, "subscription.terminated"],
  [S.catalog.subscriptionCanceled, "subscription.canceled"],
] as const) {
  rule(
    subject,
    type,
    "subscription",
    (d) => ({ kind: "subscription", externalId: d.subscription.external_id, status: d.subscription.status }),
    (d) => d.subscription.svc_id,
    (d) => d.subscription,
  );
}
// a progressive-billing threshold crossed: Lago's subscription object (with the threshold in the event's view)
rule(
  S.invoicing.subscriptionUsageThresholdReached,
  "subscription.usage_threshold_reached",
  "subscription",
  (d) => ({ kind: "subscription", externalId: d.subscription.external_id, status: "active" }),
  (d) => d.subscription.svc_id,
  (d) => ({ ...d.subscription, usage_threshold: d.usage_threshold }),
);
for (const [subject, type] of [
  [S.catalog.planCreated, "plan.created"],
  [S.catalog.planUpdated, "plan.updated"],
  [S.catalog.planDeleted, "plan.deleted"],
] as const) {
  rule(
    subject,
    type,
    "plan",
    (d) => ({ kind: "plan", code: d.plan.code }),
    (d) => d.plan.svc_id,
    (d) => d.plan,
  );
}
for (const [subject, type] of [
  [S.catalog.billableMetricCreated, "billable_metric.created"],
  [S.catalog.billableMetricUpdated, "billable_metric.updated"],
  [S.catalog.billableMetricDeleted, "billable_metric.deleted"],
] as const) {
  rule(
    subject,
    type,
    "billable_metric",
    (d) => ({ kind: "billable_metric", code: d.billable_metric.code }),
    (d) => d.billable_metric.svc_id,
    (d) => d.billable_metric,
  );
}
for (const [subject, type] of [
  [S.invoicing.invoiceCreated, "invoice.created"],
  [S.invoicing.invoiceDrafted, "invoice.drafted"],
  [S.invoicing.invoicePaymentStatusUpdated, "invoice.payment_status_updated"],
  [S.invoicing.invoicePaymentOverdue, "invoice.payment_overdue"],
  [S.invoicing.invoiceVoided, "invoice.voided"],
] as const) {
  rule(
    subject,
    type,
    "invoice",
    (d) => ({ kind: "invoice", id: d.invoice.svc_id }),
    (d) => d.invoice.svc_id,
    (d) => d.invoice,
  );
}
for (const [subject, type] of [
  [S.wallet.walletCreated, "wallet.created"],
  [S.wallet.walletUpdated, "wallet.updated"],
  [S.wallet.walletTerminated, "wallet.terminated"],
  [S.wallet.walletDepletedOngoingBalance, "wallet.depleted_ongoing_balance"],
] as const) {
  rule(
    subject,
    type,
    "wallet",
    (d) => ({ kind: "wallet", id: d.wallet.svc_id }),
    (d) => d.wallet.svc_id,
    (d) => d.wallet,
  );
}
for (const [subject, type] of [
  [S.wallet.transactionCreated, "wallet_transaction.created"],
  [S.wallet.transactionUpdated, "wallet_transaction.updated"],
] as const) {
  rule(
    subject,
    type,
    "wallet_transaction",
    (d) => ({ kind: "wallet_transaction", id: d.wallet_transaction.svc_id }),
    (d) => d.wallet_transaction.svc_id,
    (d) => d.wallet_transaction,
  );
}
for (const [subject, type] of [
  [S.payment.paymentRequiresAction, "payment.requires_action"],
  [S.payment.paymentSucceeded, "payment.succeeded"],
  // not Lago's: a succeeded payment its invoice could not wholly take (the payment shows the overpaid part and how it is given back)
  [S.payment.paymentOverpaid, "payment.overpaid"],
] as const) {
  rule(
    subject,
    type,
    "payment",
    (d) => ({ kind: "payment", id: d.payment.svc_id }),
    (d) => d.payment.svc_id,
    (d) => d.payment,
  );
}
for (const [subject, type] of [
  [S.payment.paymentRequestCreated, "payment_request.created"],
  [S.payment.paymentRequestPaymentStatusUpdated, "payment_request.payment_status_updated"],
] as const) {
  rule(
    subject,
    type,
    "payment_request",
    (d) => ({ kind: "payment_request", id: d.payment_request.svc_id }),
    (d) => d.payment_request.svc_id,
    (d) => d.payment_request,
  );
}

// each pay-in-advance fee a usage event created (Lago's fee.created), the fee as GET /fees/{id} shows it: one per
// message (advance_fee.created, before messages carried many) or many (advance_fees.created, feeWebhooks below)
rule(
  S.invoicing.advanceFeeCreated,
  "fee.created",
  "fee",
  (d) => ({ kind: "fee", id: d.fee.svc_id }),
  (d) => d.fee.svc_id,
  (d) => d.fee,
);
rule(
  S.invoicing.creditNoteCreated,
  "credit_note.created",
  "credit_note",
  (d) => ({ kind: "credit_note", id: d.credit_note.svc_id }),
  (d) => d.credit_note.svc_id,
  (d) => d.credit_note,
);
// a credit note's PDF rendered for the first time (Lago's credit_note.generated)
rule(
  S.invoicing.creditNoteGenerated,
  "credit_note.generated",
  "credit_note",
  (d) => ({ kind: "credit_note", id: d.credit_note.svc_id }),
  (d) => d.credit_note.svc_id,
  (d) => d.credit_note,
);

// a credit note's refund the provider refused (Lago's credit_note.refund_failure): the event's own view
rule(
  S.payment.refundFailed,
  "credit_note.refund_failure",
  "credit_note_payment_provider_refund_error",
  () => ({ kind: "event_view" }),
  (d) => d.credit_note_payment_provider_refund_error.svc_credit_note_id,
  (d) => d.credit_note_payment_provider_refund_error,
);
// a draft deleted (Lago's invoice.deleted), a one-off invoice made (Lago's invoice.one_off_created), an invoice's PDF made (Lago's invoice.generated)
for (const [subject, type] of [
  [S.invoicing.invoiceDeleted, "invoice.deleted"],
  [S.invoicing.invoiceOneOffCreated, "invoice.one_off_created"],
  [S.invoicing.invoiceGenerated, "invoice.generated"],
] as const) {
  rule(
    subject,
    type,
    "invoice",
    (d) => ({ kind: "invoice", id: d.invoice.svc_id }),
    (d) => d.invoice.svc_id,
    (d) => d.invoice,
  );
}

/**
 * billing.invoicing.advance_fees.created: one fee.created per fee. Each webhook's event id is the one
 * the fee's own advance_fee.created message had (derived from the fee), so a fee announced both
 * ways is delivered once.
 */
const feeWebhooks = (d: EventData<typeof S.invoicing.advanceFeesCreated>): WebhookEvent[] =>
  d.fees.map((fee) => ({
    webhookType: "fee.created",
    objectType: "fee",
    ref: { kind: "fee", id: fee.svc_id },
    objectId: fee.svc_id,
    view: fee,
    eventName: `advance_fee.created|${fee.svc_id}`,
  }));

/** The subjects that become webhooks, by stream. */
export const WEBHOOK_SUBJECTS: readonly string[] = [...Object.keys(rules), S.invoicing.advanceFeesCreated];

/** Every webhook type this platform sends (an endpoint's `event_types` must name some of these). */
export const WEBHOOK_TYPES: ReadonlySet<string> = new Set(Object.values(rules).map((r) => r.type)); // fee.created among them

/** The webhook types a subject's events can become (none: it is not read at all). */
export function webhookTypesOf(subject: string): readonly string[] {
  if (subject === S.invoicing.advanceFeesCreated) return ["fee.created"];
  const r = rules[subject];
  return r ? [r.type] : [];
}

/**
 * The webhooks an event becomes: one, several (a message of many fees), or none. `data` is the
 * event's data as eventData parsed it with the subject's schema.
 */
export function webhookEventsOf(subject: string, data: unknown): WebhookEvent[] {
  // as for the rules: the data was parsed with advance_fees.created's schema
  if (subject === S.invoicing.advanceFeesCreated)
    return feeWebhooks(data as EventData<typeof S.invoicing.advanceFeesCreated>);
  const r = rules[subject];
  return r ? [r.event(data)] : [];
}
