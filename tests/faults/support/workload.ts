import { until, type ApiClient, type Json } from "./client";

/**
 * The billing workload the faults strike, driven through the HTTP API of one sandbox organization
 * (its test clock frozen until advanced): customers of the sandbox payment provider (the outcome
 * follows provider_customer_id, like test cards) or without a provider, a monthly plan with a
 * metered charge, usage events, wallets of granted credits consumed by invoices, paid top-ups
 * (a credit invoice that credits the wallet once paid), one-off invoices, credit notes with
 * refunds, and a webhook endpoint on a local receiver.
 *
 * Every step is one request whose effect the platform completes asynchronously (a charge, a
 * settlement, a refund, a webhook): the invariants are checked once it has settled. Steps that
 * move money are sent once (never repeated by the client); steps that only look, or that the API
 * makes idempotent (customer upserts, sandbox confirmations), are repeated through a fault.
 */
export const CARDS = {
  succeeds: "4242424242424242",
  requiresAction: "4000002500003155",
  declines: "4000000000000002",
} as const;

export type CustomerKind = "succeeds" | "requires_action" | "declines" | "manual";

export interface WorkloadCustomer {
  externalId: string;
  kind: CustomerKind;
  /** the card on file now (a declining customer's is replaced by one that succeeds before a retry) */
  card: string | null;
  walletId: string | null;
  subscriptionId: string | null;
}

/** Plan "basic": 10.00 a month in arrears, calls at 1.00 each. Add-on "setup": 25.00. */
export const PLAN_CENTS = 1_000;
export const CALL_CENTS = 100;
export const SETUP_CENTS = 2_500;

/** The webhook types whose objects the suite expects to be delivered at least once. */
export const WEBHOOK_TYPES = [
  "customer.created",
  "invoice.created",
  "invoice.one_off_created",
  "payment.succeeded",
  "wallet.created",
  "wallet_transaction.created",
  "credit_note.created",
] as const;

const sandbox = (card: string | null): Json =>
  card ? { billing_configuration: { payment_provider: "sandbox", provider_customer_id: card } } : {};
const cardOf = (kind: CustomerKind): string | null =>
  kind === "succeeds"
    ? CARDS.succeeds
    : kind === "requires_action"
      ? CARDS.requiresAction
      : kind === "declines"
        ? CARDS.declines
        : null;

export class Workload {
  readonly customers = new Map<string, WorkloadCustomer>();
  /** what the workload did, by step (printed in the run's figures) */
  readonly counts: Record<string, number> = {};
  private eventSeq = 0;

  constructor(
    readonly api: ApiClient,
    private readonly receiverUrl: string,
  ) {}

  private count(step: string): void {
    this.counts[step] = (this.counts[step] ?? 0) + 1;
  }

  /** The catalog (metric, plan, add-on) and the webhook endpoint (hmac, the types checked). */
  async setup(): Promise<void> {
    const metric = await this.api.ok("POST", "/billable_metrics", {
      billable_metric: { name: "Calls", code: "calls", aggregation_type: "count_agg" },
    });
    await this.api.ok("POST", "/plans", {
      plan: {
        name: "Basic",
        code: "basic",
        interval: "monthly",
        amount_cents: PLAN_CENTS,
        amount_currency: "EUR",
        pay_in_advance: false,
        charges: [
          {
            billable_metric_id: metric.billable_metric.svc_id,
            charge_model: "standard",
            properties: { amount: String(CALL_CENTS / 100) },
          },
        ],
      },
    });
    await this.api.ok("POST", "/add_ons", {
      add_on: { name: "Setup", code: "setup", amount_cents: SETUP_CENTS, amount_currency: "EUR" },
    });
    await this.api.ok("POST", "/webhook_endpoints", {
      webhook_endpoint: {
        webhook_url: `${this.receiverUrl}/faults`,
        signature_algo: "hmac",
        event_types: [...WEBHOOK_TYPES],
      },
    });
  }

  /**
   * A customer (EUR) of this kind; `subscribe`: on plan basic from the clock's time; `grantedCredits`:
   * a wallet (1 credit = 1.00) with that many credits granted (0: a wallet with none).
   */
  async customer(
    externalId: string,
    kind: CustomerKind,
    options: { subscribe?: boolean; grantedCredits?: number } = {},
  ): Promise<WorkloadCustomer> {
    const card = cardOf(kind);
    await this.api.ok(
      "POST",
      "/customers",
      { customer: { external_id: externalId, name: externalId, currency: "EUR", ...sandbox(card) } },
      { retry: true },
    );
    const customer: WorkloadCustomer = { externalId, kind, card, walletId: null, subscriptionId: null };
    this.customers.set(externalId, customer);
    this.count("customers");
    if (options.subscribe) {
      customer.subscriptionId = `sub_${externalId}`;
      await this.api.ok("POST", "/subscriptions", {
        subscription: {
          external_customer_id: externalId,
          plan_code: "basic",
          external_id: customer.subscriptionId,
          billing_time: "calendar",
        },
      });
      this.count("subscriptions");
    }
    if (options.grantedCredits !== undefined) {
      const wallet = await this.api.ok("POST", "/wallets", {
        wallet: {
          external_customer_id: externalId,
          currency: "EUR",
          rate_amount: "1",
          ...(options.grantedCredits > 0 && { granted_credits: String(options.grantedCredits) }),
        },
      });
      customer.walletId = wallet.wallet.svc_id as string;
      this.count("wallets");
    }
    return customer;
  }

  /** `count` calls on a customer's subscription at `at` (unix seconds from an ISO instant); each has its own transaction id. */
  async usage(externalId: string, count: number, at: string): Promise<void> {
    const sub = this.customers.get(externalId)?.subscriptionId;
    if (!sub) throw new Error(`${externalId} has no subscription`);
    const timestamp = Math.floor(Date.parse(at) / 1000);
    const events = Array.from({ length: count }, () => ({
      transaction_id: `${sub}-${++this.eventSeq}`,
      external_subscription_id: sub,
      code: "calls",
      timestamp,
    }));
    // the same transaction ids again are stored once: a batch may be repeated through a fault
    await this.api.ok("POST", "/events/batch", { events }, { retry: true });
    this.counts.usage_events = (this.counts.usage_events ?? 0) + count;
  }

  /** A one-off invoice of the setup add-on (finalized at once; a provider customer is charged on its finalization). */
  async oneOff(externalId: string, units = 1): Promise<Json> {
    const invoice = (
      await this.api.ok("POST", "/invoices", {
        invoice: { external_customer_id: externalId, fees: [{ add_on_code: "setup", units: String(units) }] },
      })
    ).invoice as Json;
    this.count("one_off_invoices");
    return invoice;
  }

  /** A paid top-up: a purchase of `credits` (pending) and its credit invoice; returns both ids. */
  async buyCredits(externalId: string, credits: number): Promise<{ transactionId: string; invoiceId: string }> {
    const walletId = this.customers.get(externalId)?.walletId;
    if (!walletId) throw new Error(`${externalId} has no wallet`);
    const [tx] = (
      await this.api.ok("POST", "/wallet_transactions", {
        wallet_transaction: { wallet_id: walletId, paid_credits: String(credits) },
      })
    ).wallet_transactions as Json[];
    this.count("top_ups");
    return { transactionId: tx!.svc_id as string, invoiceId: tx!.svc_invoice_id as string };
  }

  /** A paid top-up asked for while the platform may not be able to make its invoice: the answer's status, nothing thrown. */
  async tryBuyCredits(externalId: string, credits: number): Promise<number> {
    const walletId = this.customers.get(externalId)?.walletId;
    if (!walletId) throw new Error(`${externalId} has no wallet`);
    const reply = await this.api.call(
      "POST",
      "/wallet_transactions",
      { wallet_transaction: { wallet_id: walletId, paid_credits: String(credits) } },
      { timeoutMs: 60_000 },
    );
    this.count(reply.status === 200 ? "top_ups" : `top_ups_refused_${reply.status}`);
    return reply.status;
  }

  /** A wallet's transactions (GET /wallets/{id}/wallet_transactions, every page). */
  transactions(externalId: string): Promise<Json[]> {
    const walletId = this.customers.get(externalId)?.walletId;
    if (!walletId) throw new Error(`${externalId} has no wallet`);
    return this.api.all(`/wallets/${walletId}/wallet_transactions`, "wallet_transactions");
  }

  /** A manual payment of what an invoice still owes (read first: nothing is paid twice by the workload itself). Returns the answer's status. */
  async payManually(invoiceId: string, reference: string): Promise<number> {
    const invoice = (await this.api.get(`/invoices/${invoiceId}`)).invoice as Json;
    const due = invoice.total_due_amount_cents as number;
    if (due <= 0 || invoice.payment_status === "succeeded") return 200;
    const reply = await this.api.call("POST", "/payments", {
      payment: { invoice_id: invoiceId, amount_cents: due, reference },
    });
    if (reply.status === 200) this.count("manual_payments");
    else this.count(`manual_payments_refused_${reply.status}`);
    return reply.status;
  }

  /** The provider's payments of an invoice (GET /payments?invoice_id=…). */
  async payments(invoiceId: string): Promise<Json[]> {
    return (await this.api.get(`/payments?invoice_id=${invoiceId}&per_page=100`)).payments as Json[];
  }

  /** Confirms every processing provider payment of an invoice, as the customer would (POST /sandbox/payments/{id}/confirm; a second one changes nothing). */
  async confirm(invoiceId: string): Promise<number> {
    let confirmed = 0;
    for (const p of await this.payments(invoiceId)) {
      if (p.type !== "provider" || p.payment_status !== "processing") continue;
      await this.api.ok("POST", `/sandbox/payments/${p.svc_id}/confirm`, undefined, { retry: true });
      confirmed++;
      this.count("confirmations");
    }
    return confirmed;
  }

  /** A declined customer's card replaced by one that succeeds (an upsert), then POST /invoices/{id}/retry_payment. */
  async retryWithNewCard(externalId: string, invoiceId: string): Promise<number> {
    const customer = this.customers.get(externalId)!;
    if (customer.card !== CARDS.succeeds) {
      await this.api.ok(
        "POST",
        "/customers",
        { customer: { external_id: externalId, currency: "EUR", ...sandbox(CARDS.succeeds) } },
        { retry: true },
      );
      customer.card = CARDS.succeeds;
    }
    const reply = await this.api.call("POST", `/invoices/${invoiceId}/retry_payment`);
    if (reply.status === 200) this.count("payment_retries");
    return reply.status;
  }

  /** A credit note of `cents` on an invoice's first fee, all of it refunded. */
  async refund(invoiceId: string, cents: number): Promise<Json> {
    const invoice = (await this.api.get(`/invoices/${invoiceId}`)).invoice as Json;
    const fee = (invoice.fees as Json[])[0]!;
    const note = (
      await this.api.ok("POST", "/credit_notes", {
        credit_note: {
          invoice_id: invoiceId,
          reason: "other",
          refund_amount_cents: cents,
          items: [{ fee_id: fee.svc_id, amount_cents: cents }],
        },
      })
    ).credit_note as Json;
    this.count("credit_notes");
    return note;
  }

  /** POST /test_clock/advance (answered at once); `ready` waits until every service has run what fell due. */
  async advance(to: string): Promise<void> {
    await this.api.ok("POST", "/test_clock/advance", { test_clock: { frozen_time: to } });
    this.count("clock_advances");
  }

  async clockReady(timeoutMs: number): Promise<void> {
    await until("the test clock ready", async () => (await this.api.get("/test_clock")).test_clock.status === "ready", {
      timeoutMs,
      intervalMs: 500,
    });
  }

  /** Every invoice of the organization. */
  invoices(): Promise<Json[]> {
    return this.api.all("/invoices", "invoices");
  }

  /**
   * The customers' part after the faults: each unpaid invoice is paid the way its customer pays.
   * A requires-action payment is confirmed; a declined one is retried with a working card; an
   * invoice without a provider is paid manually. An invoice of a provider customer that has no
   * provider attempt yet is waited for: the platform charges it on finalization (a redelivery
   * after a crash comes up to 30 s later), and not doing so is what the invariants report.
   * Repeated until nothing is left to do, bounded: false when something was still under way at
   * the deadline (the invariants then say what).
   */
  async settleCustomers(timeoutMs: number): Promise<boolean> {
    return until(
      "every invoice the customers can pay paid",
      async () => {
        let waiting = 0;
        for (const invoice of await this.invoices()) {
          if (
            invoice.status !== "finalized" ||
            invoice.payment_status === "succeeded" ||
            (invoice.total_amount_cents as number) <= 0
          )
            continue;
          const customer = this.customers.get(invoice.customer.external_id as string);
          if (!customer) continue;
          const payments = (await this.payments(invoice.svc_id as string)).filter((p) => p.type === "provider");
          if (customer.kind === "manual") {
            await this.payManually(invoice.svc_id as string, `settle ${invoice.number}`);
            waiting++;
          } else if (payments.some((p) => p.payment_status === "processing")) {
            await this.confirm(invoice.svc_id as string);
            waiting++;
          } else if (payments.length > 0 && payments.every((p) => p.payment_status === "failed")) {
            await this.retryWithNewCard(customer.externalId, invoice.svc_id as string);
            waiting++;
          } else {
            // pending at the provider (its outcome is on its way), or not attempted yet (its
            // invoice.finalized redelivered after a crash): waited for until the deadline
            waiting++;
          }
        }
        return waiting === 0;
      },
      { timeoutMs, intervalMs: 1_000 },
    ).catch(() => false);
  }
}
