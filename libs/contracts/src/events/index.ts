import { makeEnvelope, PoisonMessage, Subjects, type Envelope } from "@billing/bus";
import type { z } from "zod";
import { billableMetricEventData, planEventData, subscriptionEventData } from "./catalog";
import { customerEventData } from "./customer";
import {
  advanceFeeEventData,
  advanceFeesEventData,
  feeEventData,
  invoiceEventData,
  usageThresholdReachedData,
} from "./invoicing";
import { creditNoteEventData } from "./credit-notes";
import { eventIngestedData } from "./usage";
import { paymentEventData, paymentOverpaidEventData, paymentRequestEventData, refundFailedEventData } from "./payment";
import { walletEventData, walletTransactionEventData } from "./wallet";

const C = Subjects.catalog;

/** The one data schema of every subject: producers validate what they publish, consumers parse what they read. */
export const EventSchemas = {
  [Subjects.customer.customerCreated]: customerEventData,
  [Subjects.customer.customerUpdated]: customerEventData,
  [Subjects.customer.customerDeleted]: customerEventData,
  [C.subscriptionStarted]: subscriptionEventData,
  [C.subscriptionUpdated]: subscriptionEventData,
  [C.subscriptionTerminated]: subscriptionEventData,
  [C.subscriptionCanceled]: subscriptionEventData,
  [C.planCreated]: planEventData,
  [C.planUpdated]: planEventData,
  [C.planDeleted]: planEventData,
  [C.billableMetricCreated]: billableMetricEventData,
  [C.billableMetricUpdated]: billableMetricEventData,
  [C.billableMetricDeleted]: billableMetricEventData,
  [Subjects.usage.eventIngested]: eventIngestedData,
  [Subjects.invoicing.invoiceCreated]: invoiceEventData,
  [Subjects.invoicing.invoiceDrafted]: invoiceEventData,
  [Subjects.invoicing.invoiceFinalized]: invoiceEventData,
  [Subjects.invoicing.invoicePaymentStatusUpdated]: invoiceEventData,
  [Subjects.invoicing.invoicePaymentOverdue]: invoiceEventData,
  [Subjects.invoicing.feeCreated]: feeEventData,
  [Subjects.invoicing.advanceFeeCreated]: advanceFeeEventData,
  [Subjects.invoicing.advanceFeesCreated]: advanceFeesEventData,
  [Subjects.invoicing.subscriptionUsageThresholdReached]: usageThresholdReachedData,
  [Subjects.invoicing.invoiceVoided]: invoiceEventData,
  [Subjects.invoicing.creditNoteCreated]: creditNoteEventData,
  [Subjects.invoicing.creditNoteUpdated]: creditNoteEventData,
  [Subjects.invoicing.creditNoteRefundRequested]: creditNoteEventData,
  [Subjects.invoicing.invoiceDeleted]: invoiceEventData,
  [Subjects.invoicing.creditNoteGenerated]: creditNoteEventData,
  [Subjects.invoicing.invoiceOneOffCreated]: invoiceEventData,
  [Subjects.invoicing.invoiceGenerated]: invoiceEventData,
  [Subjects.wallet.walletCreated]: walletEventData,
  [Subjects.wallet.walletUpdated]: walletEventData,
  [Subjects.wallet.walletTerminated]: walletEventData,
  [Subjects.wallet.walletDepletedOngoingBalance]: walletEventData,
  [Subjects.wallet.transactionCreated]: walletTransactionEventData,
  [Subjects.wallet.transactionUpdated]: walletTransactionEventData,
  [Subjects.payment.paymentCreated]: paymentEventData,
  [Subjects.payment.paymentRequiresAction]: paymentEventData,
  [Subjects.payment.paymentSucceeded]: paymentEventData,
  [Subjects.payment.paymentFailed]: paymentEventData,
  [Subjects.payment.paymentOverpaid]: paymentOverpaidEventData,
  [Subjects.payment.paymentRequestCreated]: paymentRequestEventData,
  [Subjects.payment.paymentRequestPaymentStatusUpdated]: paymentRequestEventData,
  [Subjects.payment.refundFailed]: refundFailedEventData,
} as const;

export type Subject = keyof typeof EventSchemas;
/** What a producer hands over for a subject. */
export type EventDataInput<S extends Subject> = z.input<(typeof EventSchemas)[S]>;
/** What a consumer reads for a subject (defaults applied, absent nullable fields as null). */
export type EventData<S extends Subject> = z.output<(typeof EventSchemas)[S]>;

/**
 * A domain event of `type`, its data checked against the subject's schema (a producer bug throws
 * before anything is stored). The envelope carries the data as given.
 */
export function domainEvent<S extends Subject>(
  type: S,
  input: {
    organizationId: string;
    data: EventDataInput<S>;
    occurredAt: Date;
    correlationId?: string | null;
    id?: string;
  },
): Envelope<EventDataInput<S>> {
  const checked = EventSchemas[type].safeParse(input.data);
  if (!checked.success) throw new Error(`invalid ${type} event: ${checked.error.message}`);
  return makeEnvelope({
    type,
    organizationId: input.organizationId,
    data: input.data,
    occurredAt: input.occurredAt,
    correlationId: input.correlationId,
    id: input.id,
  });
}

/** True when the envelope is of one of `types` (narrows its type for `eventData`). */
export function isEvent<S extends Subject>(
  envelope: Envelope,
  types: readonly S[],
): envelope is Envelope & { type: S } {
  return (types as readonly string[]).includes(envelope.type);
}

/**
 * The data of a received envelope, parsed by its subject's schema. A malformed event never
 * becomes valid on redelivery: it is refused for good (PoisonMessage: parked in the consuming
 * service's dead_letters, not retried).
 */
export function eventData<S extends Subject>(envelope: Envelope & { type: S }): EventData<S> {
  const schema = EventSchemas[envelope.type as S] as unknown as z.ZodType<EventData<S>> | undefined;
  if (!schema) throw new PoisonMessage(`no schema for ${envelope.type}`);
  const parsed = schema.safeParse(envelope.data);
  if (!parsed.success) throw new PoisonMessage(`malformed ${envelope.type} event: ${parsed.error.message}`);
  return parsed.data;
}

export * from "./catalog";
export * from "./customer";
export * from "./usage";
export * from "./invoicing";
export * from "./credit-notes";
export * from "./wallet";
export * from "./payment";
