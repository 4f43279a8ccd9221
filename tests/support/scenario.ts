import { expect } from "vitest";
import { api } from "./api";

/**
 * Small builders for the billing scenarios (tests/e2e/scenarios): an API client whose every answer
 * is checked against our OpenAPI document and Lago's, the catalog a story needs, its events, and readers
 * of the invoices it must produce.
 */
export type Api = ReturnType<typeof api>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
export type Reply = Awaited<ReturnType<Api>>;

/**
 * An API client of one organization whose every answer is checked against our OpenAPI document (the
 * gateway's /api/v1/openapi.json: exactly the keys it lists) and, where Lago has the route, Lago's
 * (the operation's schema for that status): `api()` itself checks every answer. A body that does
 * not match fails the test at once.
 */
export function checkedApi(baseUrl: string, apiKey: string): Api {
  return api(baseUrl, apiKey);
}

/** The body of a 200 answer; any other status fails the test, showing the body. */
export async function ok(pending: Promise<Reply>): Promise<Json> {
  const reply = await pending;
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as Json;
}

/** Unix seconds of an ISO instant, as the events API takes timestamps. */
export const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** An instant in one spelling (`…T00:00:00Z` and `…T00:00:00.000Z` are the same instant). */
export const instant = (value: string | null | undefined) => (value ? new Date(value).toISOString() : value);

/** A fee's or a billing period's span as two ISO instants. */
export const span = (from: string | null | undefined, to: string | null | undefined) => [instant(from), instant(to)];

// ---------------------------------------------------------------------------------------------
// catalog

/** A billable metric (count_agg unless told otherwise); returns its svc_id. */
export async function metric(as: Api, code: string, extra: Json = {}): Promise<string> {
  const body = await ok(
    as("POST", "/billable_metrics", { billable_metric: { name: code, code, aggregation_type: "count_agg", ...extra } }),
  );
  return body.billable_metric.svc_id as string;
}

/** A tax, `rate` in percent as Lago takes it (a decimal string). */
export async function tax(as: Api, code: string, rate: string): Promise<void> {
  await ok(as("POST", "/taxes", { tax: { name: code.toUpperCase(), code, rate } }));
}

/** An add-on (for fixed charges); returns its svc_id. */
export async function addOn(
  as: Api,
  code: string,
  name: string,
  amountCents: number,
  currency = "EUR",
): Promise<string> {
  const body = await ok(
    as("POST", "/add_ons", { add_on: { name, code, amount_cents: amountCents, amount_currency: currency } }),
  );
  return body.add_on.svc_id as string;
}

/** A plan: monthly, EUR, in arrears unless told otherwise; returns the plan as answered. */
export async function plan(as: Api, code: string, fields: Json): Promise<Json> {
  const body = await ok(
    as("POST", "/plans", {
      plan: {
        name: code[0]!.toUpperCase() + code.slice(1),
        code,
        interval: "monthly",
        amount_currency: "EUR",
        pay_in_advance: false,
        charges: [],
        ...fields,
      },
    }),
  );
  return body.plan as Json;
}

/** A standard charge of `amount` per unit on a metric. */
export const standard = (billableMetricId: string, amount: string, extra: Json = {}): Json => ({
  billable_metric_id: billableMetricId,
  charge_model: "standard",
  properties: { amount },
  ...extra,
});

/** A customer in EUR (POST /customers is an upsert); returns it as answered (its sequential_id numbers its invoices). */
export async function customer(as: Api, externalId: string, extra: Json = {}): Promise<Json> {
  const body = await ok(
    as("POST", "/customers", { customer: { external_id: externalId, name: externalId, currency: "EUR", ...extra } }),
  );
  return body.customer as Json;
}

/** POST /subscriptions (calendar unless told otherwise): a new subscription, or an upgrade/downgrade of `externalId`. */
export async function subscribe(
  as: Api,
  externalCustomerId: string,
  planCode: string,
  externalId: string,
  extra: Json = {},
): Promise<Json> {
  const body = await ok(
    as("POST", "/subscriptions", {
      subscription: {
        external_customer_id: externalCustomerId,
        plan_code: planCode,
        external_id: externalId,
        billing_time: "calendar",
        ...extra,
      },
    }),
  );
  return body.subscription as Json;
}

/** A coupon that never expires. */
export async function coupon(as: Api, code: string, fields: Json): Promise<void> {
  await ok(
    as("POST", "/coupons", { coupon: { name: code, code, expiration: "no_expiration", reusable: true, ...fields } }),
  );
}

/** Applies a coupon to a customer; returns the applied coupon. */
export async function applyCoupon(
  as: Api,
  externalCustomerId: string,
  couponCode: string,
  overrides: Json = {},
): Promise<Json> {
  const body = await ok(
    as("POST", "/applied_coupons", {
      applied_coupon: { external_customer_id: externalCustomerId, coupon_code: couponCode, ...overrides },
    }),
  );
  return body.applied_coupon as Json;
}

// ---------------------------------------------------------------------------------------------
// events

let sequence = 0;

/** One usage event at `at` (an ISO instant); each gets its own transaction id. */
export const event = (externalSubscriptionId: string, code: string, at: string, properties?: Json): Json => ({
  transaction_id: `${code}-${++sequence}-${Date.now().toString(36)}`,
  external_subscription_id: externalSubscriptionId,
  code,
  timestamp: seconds(at),
  ...(properties ? { properties } : {}),
});

/** `count` identical events. */
export const events = (
  count: number,
  externalSubscriptionId: string,
  code: string,
  at: string,
  properties?: Json,
): Json[] => Array.from({ length: count }, () => event(externalSubscriptionId, code, at, properties));

/** Sends events through POST /events/batch, 100 at a time (Lago's limit). */
export async function send(as: Api, list: Json[]): Promise<void> {
  for (let i = 0; i < list.length; i += 100) await ok(as("POST", "/events/batch", { events: list.slice(i, i + 100) }));
}

// ---------------------------------------------------------------------------------------------
// invoices

const byIssue = (a: Json, b: Json) =>
  String(a.issuing_date).localeCompare(String(b.issuing_date)) ||
  String(a.created_at).localeCompare(String(b.created_at));

/**
 * A customer's visible invoices, oldest first, each as GET /invoices/{svc_id} shows it (fees
 * included). The list is Lago's InvoicesPaginated, each invoice Lago's Invoice, and each list entry
 * agrees with the invoice read alone.
 */
export async function invoicesOf(as: Api, externalCustomerId: string): Promise<Json[]> {
  // An invoice may change between the list and its own read (a payment provider settling it in the
  // background): the list is read again, a few times, until every entry agrees with its read.
  for (let attempt = 1; ; attempt++) {
    const list = await ok(
      as("GET", `/invoices?external_customer_id=${encodeURIComponent(externalCustomerId)}&per_page=100`),
    );
    const invoices: Json[] = [];
    let agree = true;
    for (const entry of [...(list.invoices as Json[])].reverse()) {
      // the API answers newest first
      // Lago lists invoices without some of what one invoice shows (fees, credits): the list entry is a part of it
      const one = await ok(as("GET", `/invoices/${entry.svc_id}`));
      if (attempt >= 5) expect(one.invoice).toMatchObject(entry);
      else agree &&= isMatch(one.invoice, entry);
      invoices.push(one.invoice as Json);
    }
    if (agree) return invoices.sort(byIssue);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Whether `actual` holds every field of `expected` as it is (toMatchObject's rule, as a boolean). */
function isMatch(actual: unknown, expected: unknown): boolean {
  try {
    expect(actual).toMatchObject(expected as object);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits (bounded) until a customer has `count` visible invoices: for the invoices a change makes
 * within seconds (a pay-in-advance start, a termination, an upgrade), not on a clock boundary.
 */
export async function awaitInvoices(
  as: Api,
  externalCustomerId: string,
  count: number,
  timeoutMs = 15_000,
): Promise<Json[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await ok(
      as("GET", `/invoices?external_customer_id=${encodeURIComponent(externalCustomerId)}&per_page=100`),
    );
    if ((list.invoices as Json[]).length >= count || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const invoices = await invoicesOf(as, externalCustomerId);
  expect(invoices, `${externalCustomerId}'s invoices after ${timeoutMs} ms`).toHaveLength(count);
  return invoices;
}

/** The fees of an invoice of one type (subscription, charge, fixed_charge, commitment), in the invoice's order. */
export const feesOf = (invoice: Json, type: string): Json[] =>
  (invoice.fees as Json[]).filter((f) => f.item.type === type);

/** The one fee of a type (and metric or add-on code). */
export function feeOf(invoice: Json, type: string, code?: string): Json {
  const fees = feesOf(invoice, type).filter((f) => code === undefined || f.item.code === code);
  expect(fees, `${type} fees${code ? ` of ${code}` : ""} on ${JSON.stringify(invoice.fees)}`).toHaveLength(1);
  return fees[0]!;
}

/**
 * Every amount of an invoice, by billing-rules §3: fees − progressive credit (0) − coupons =
 * sub-total excluding taxes; + taxes = sub-total including taxes; − credit notes (0) − prepaid
 * credits (0) = total. Credit notes, progressive billing and wallets come with later issues.
 */
export function expectTotals(
  invoice: Json,
  { fees, coupons = 0, taxes = 0 }: { fees: number; coupons?: number; taxes?: number },
): void {
  const excluding = fees - coupons;
  expect({
    fees_amount_cents: invoice.fees_amount_cents,
    progressive_billing_credit_amount_cents: invoice.progressive_billing_credit_amount_cents,
    coupons_amount_cents: invoice.coupons_amount_cents,
    sub_total_excluding_taxes_amount_cents: invoice.sub_total_excluding_taxes_amount_cents,
    taxes_amount_cents: invoice.taxes_amount_cents,
    sub_total_including_taxes_amount_cents: invoice.sub_total_including_taxes_amount_cents,
    credit_notes_amount_cents: invoice.credit_notes_amount_cents,
    prepaid_credit_amount_cents: invoice.prepaid_credit_amount_cents,
    total_amount_cents: invoice.total_amount_cents,
  }).toEqual({
    fees_amount_cents: fees,
    progressive_billing_credit_amount_cents: 0,
    coupons_amount_cents: coupons,
    sub_total_excluding_taxes_amount_cents: excluding,
    taxes_amount_cents: taxes,
    sub_total_including_taxes_amount_cents: excluding + taxes,
    credit_notes_amount_cents: 0,
    prepaid_credit_amount_cents: 0,
    total_amount_cents: excluding + taxes,
  });
}

/** An invoice's subscriptions as [external id, invoicing reason], in the invoice's order. */
export const reasons = (invoice: Json): Array<[string, string]> =>
  (invoice.billing_periods as Json[]).map((p) => [p.external_subscription_id, p.invoicing_reason]);

/**
 * The prefix of the default billing entity's invoice numbers (billing-rules §4): its
 * document_number_prefix, else the first three letters of its name upper-cased, "-", and the last
 * four characters of its id upper-cased.
 */
export async function numberPrefix(as: Api): Promise<string> {
  const { billing_entity: entity } = await ok(as("GET", "/billing_entities/default"));
  if (entity.document_number_prefix) return entity.document_number_prefix as string;
  return `${String(entity.name)
    .replace(/[^A-Za-z]/g, "")
    .slice(0, 3)
    .toUpperCase()}-${String(entity.svc_id).replace(/-/g, "").slice(-4).toUpperCase()}`;
}
