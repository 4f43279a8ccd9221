import { join } from "node:path";
import { repoRoot } from "@billing/testkit";
import type { WebhookReceiver } from "../../support/webhook-receiver";
import { cents, until, type ApiClient, type Json } from "./client";

/**
 * The money invariants a run must keep whatever the faults, read back through the API (and, for
 * what the API does not show — refund records, parked messages — from the services' databases).
 * Each check answers its name, how many records it looked at, and one line per breach.
 */
export interface CheckResult {
  name: string;
  checked: number;
  breaches: string[];
}

/** The checks' names, in the order they are reported (the reconciliation only where libs/reconcile exists). */
export const INVARIANT_NAMES = [
  "every invoice charged at most once",
  "every invoice with a provider or a payer charged",
  "every paid top-up credited once",
  "every wallet balance equals its ledger",
  "every refund executed once",
  "every webhook delivered at least once",
  "no message parked",
  "reconcile (libs/reconcile)",
] as const;
const [AT_MOST_ONCE, AT_LEAST_ONCE, TOP_UPS, LEDGERS, REFUNDS, WEBHOOKS, PARKED, RECONCILE] = INVARIANT_NAMES;

export interface InvariantContext {
  api: ApiClient;
  receiver: WebhookReceiver;
  mongoUrl: string;
  dbPrefix: string;
  organizationId: string;
  services: readonly string[];
}

/** Everything the checks read, once, after the run settled. */
interface Snapshot {
  invoices: Json[];
  paymentsByInvoice: Map<string, Json[]>;
  customers: Json[];
  wallets: Json[];
  transactionsByWallet: Map<string, Json[]>;
  creditNotes: Json[];
  /** each credit invoice (a paid top-up's) as GET /invoices/{id} shows it, fees included */
  creditInvoices: Json[];
}

async function snapshot(api: ApiClient): Promise<Snapshot> {
  const invoices = await api.all("/invoices", "invoices");
  const paymentsByInvoice = new Map<string, Json[]>();
  for (const invoice of invoices)
    paymentsByInvoice.set(invoice.svc_id, await api.all(`/payments?invoice_id=${invoice.svc_id}`, "payments"));
  const customers = await api.all("/customers", "customers");
  const wallets: Json[] = [];
  for (const c of customers)
    wallets.push(...(await api.all(`/wallets?external_customer_id=${encodeURIComponent(c.external_id)}`, "wallets")));
  const transactionsByWallet = new Map<string, Json[]>();
  for (const w of wallets)
    transactionsByWallet.set(
      w.svc_id,
      await api.all(`/wallets/${w.svc_id}/wallet_transactions`, "wallet_transactions"),
    );
  const creditNotes = await api.all("/credit_notes", "credit_notes");
  const creditInvoices: Json[] = [];
  for (const i of invoices.filter((i) => i.invoice_type === "credit"))
    creditInvoices.push((await api.get(`/invoices/${i.svc_id}`)).invoice as Json);
  return { invoices, paymentsByInvoice, customers, wallets, transactionsByWallet, creditNotes, creditInvoices };
}

const succeeded = (p: Json) => p.payment_status === "succeeded";
const overpaid = (p: Json) => (typeof p.overpaid_amount_cents === "number" ? p.overpaid_amount_cents : 0);
const finalized = (i: Json) => i.status === "finalized";

/**
 * Every invoice charged exactly once: at most one succeeded provider payment; what the succeeded
 * payments brought in, less what was recorded as overpaid (and given back), is the invoice's
 * total when it is paid and less than that when it is not; total_paid_amount_cents says the same.
 */
function chargedAtMostOnce(s: Snapshot): CheckResult {
  const breaches: string[] = [];
  for (const invoice of s.invoices.filter(finalized)) {
    const payments = s.paymentsByInvoice.get(invoice.svc_id) ?? [];
    const provider = payments.filter((p) => p.type === "provider" && succeeded(p));
    const net = payments.filter(succeeded).reduce((sum, p) => sum + (p.amount_cents as number) - overpaid(p), 0);
    const total = invoice.total_amount_cents as number;
    const what = `${invoice.number} (${invoice.invoice_type}, ${invoice.customer.external_id}, total ${total})`;
    const list = payments
      .map((p) => `${p.type}:${p.payment_status}:${p.amount_cents}${overpaid(p) ? `(overpaid ${overpaid(p)})` : ""}`)
      .join(", ");
    if (provider.length > 1) breaches.push(`${what}: ${provider.length} succeeded provider payments [${list}]`);
    if (invoice.payment_status === "succeeded") {
      if (net !== total || invoice.total_paid_amount_cents !== total)
        breaches.push(
          `${what}: paid, received ${net} net, total_paid_amount_cents ${invoice.total_paid_amount_cents} [${list}]`,
        );
    } else if (net >= total && total > 0) {
      breaches.push(`${what}: ${invoice.payment_status} though ${net} was received [${list}]`);
    }
  }
  return { name: AT_MOST_ONCE, checked: s.invoices.length, breaches };
}

/** Every finalized invoice with something to pay was paid in the end (charged by its provider, confirmed, retried or paid by hand by the workload). */
function chargedAtLeastOnce(s: Snapshot): CheckResult {
  const breaches: string[] = [];
  const due = s.invoices.filter((i) => finalized(i) && (i.total_amount_cents as number) > 0);
  for (const invoice of due) {
    if (invoice.payment_status === "succeeded") continue;
    const payments = s.paymentsByInvoice.get(invoice.svc_id) ?? [];
    breaches.push(
      `${invoice.number} (${invoice.invoice_type}, ${invoice.customer.external_id}, total ${invoice.total_amount_cents}) is ${invoice.payment_status}: ${payments.length ? payments.map((p) => `${p.type}:${p.payment_status}`).join(", ") : "no payment attempt at all"}`,
    );
  }
  return { name: AT_LEAST_ONCE, checked: due.length, breaches };
}

/**
 * Every paid top-up credited once: a purchase is settled exactly when its credit invoice is paid
 * (the wallet's balance counts it once: see the ledger check), and failed only when it is not.
 * A purchase and its credit invoice are matched both ways: the purchase names its invoice
 * (svc_invoice_id), and the invoice's fee names its purchase (item.svc_item_id), so a credit
 * invoice the wallet lost track of (its purchase failed as "not invoiced") is found too.
 */
function topUpsCreditedOnce(s: Snapshot): CheckResult {
  const breaches: string[] = [];
  const purchases = new Map<string, { tx: Json; walletId: string }>();
  for (const [walletId, txs] of s.transactionsByWallet) {
    for (const tx of txs.filter((t) => t.transaction_status === "purchased"))
      purchases.set(tx.svc_id as string, { tx, walletId });
  }
  const invoiceOf = new Map<string, Json>();
  for (const invoice of s.creditInvoices) {
    const items = (invoice.fees as Json[])
      .map((f) => f.item?.svc_item_id as string | undefined)
      .filter((id): id is string => !!id);
    for (const id of items) invoiceOf.set(id, invoice);
    if (invoice.payment_status === "succeeded" && items.some((id) => !purchases.has(id))) {
      breaches.push(
        `credit invoice ${invoice.number} is paid (${invoice.total_amount_cents}) but names no purchase of any wallet (${items.join(", ")})`,
      );
    }
  }
  const byId = new Map(s.invoices.map((i) => [i.svc_id as string, i]));
  for (const { tx, walletId } of purchases.values()) {
    const invoice = invoiceOf.get(tx.svc_id as string) ?? byId.get(tx.svc_invoice_id as string);
    const paid = invoice?.payment_status === "succeeded";
    const what = `top-up ${tx.svc_id} of wallet ${walletId} (${tx.amount}, credit invoice ${invoice?.number ?? tx.svc_invoice_id ?? "none"} ${invoice?.payment_status ?? ""})`;
    if (paid && tx.status !== "settled") breaches.push(`${what}: paid but ${tx.status}`);
    if (!paid && tx.status === "settled") breaches.push(`${what}: credited but not paid`);
    if (invoice && tx.svc_invoice_id && invoice.svc_id !== tx.svc_invoice_id)
      breaches.push(`${what}: names invoice ${tx.svc_invoice_id}, but ${invoice.number} bills it`);
  }
  return { name: TOP_UPS, checked: purchases.size, breaches };
}

/**
 * Every wallet's balance equals its ledger: the settled inbound transactions less the settled
 * outbound ones; and each invoice's prepaid credits are exactly its wallets' consumptions naming
 * it, one per wallet.
 */
function walletLedgers(s: Snapshot): CheckResult {
  const breaches: string[] = [];
  const consumed = new Map<string, { cents: number; wallets: string[] }>();
  for (const wallet of s.wallets) {
    const txs = s.transactionsByWallet.get(wallet.svc_id) ?? [];
    const settled = txs.filter((t) => t.status === "settled");
    const ledger = settled.reduce(
      (sum, t) => sum + (t.transaction_type === "inbound" ? 1 : -1) * cents(t.amount as string),
      0,
    );
    if (ledger !== wallet.balance_cents) {
      breaches.push(
        `wallet ${wallet.svc_id} (${wallet.external_customer_id}): balance_cents ${wallet.balance_cents}, its settled transactions sum to ${ledger} [${settled.map((t) => `${t.transaction_status}:${t.transaction_type === "inbound" ? "+" : "-"}${t.amount}`).join(", ")}]`,
      );
    }
    for (const t of txs.filter((t) => t.transaction_status === "invoiced")) {
      const entry = consumed.get(t.svc_invoice_id) ?? { cents: 0, wallets: [] };
      entry.cents += t.status === "settled" ? cents(t.amount as string) : 0;
      entry.wallets.push(wallet.svc_id as string);
      consumed.set(t.svc_invoice_id, entry);
    }
  }
  for (const invoice of s.invoices.filter(finalized)) {
    const entry = consumed.get(invoice.svc_id) ?? { cents: 0, wallets: [] };
    if (entry.cents !== invoice.prepaid_credit_amount_cents) {
      breaches.push(
        `${invoice.number}: prepaid_credit_amount_cents ${invoice.prepaid_credit_amount_cents}, wallets consumed ${entry.cents} for it`,
      );
    }
    if (new Set(entry.wallets).size !== entry.wallets.length)
      breaches.push(`${invoice.number}: a wallet consumed twice for it (${entry.wallets.join(", ")})`);
  }
  return { name: LEDGERS, checked: s.wallets.length, breaches };
}

async function withDb<T>(
  ctx: InvariantContext,
  service: string,
  work: (db: import("mongoose").Connection) => Promise<T>,
): Promise<T> {
  const { default: mongoose } = await import("mongoose");
  const conn = await mongoose
    .createConnection(ctx.mongoUrl, { dbName: `${ctx.dbPrefix}_${service}`, serverSelectionTimeoutMS: 20_000 })
    .asPromise();
  try {
    return await work(conn);
  } finally {
    await conn.close();
  }
}

/**
 * Every refund executed once: each credit note's refund succeeded and is one refund record of
 * its amount (the payment service's `refunds`); each payment's overpaid part was given back once.
 */
async function refundsOnce(s: Snapshot, ctx: InvariantContext): Promise<CheckResult> {
  const breaches: string[] = [];
  const notes = s.creditNotes.filter((n) => (n.refund_amount_cents as number) > 0);
  const overpayments = [...s.paymentsByInvoice.values()].flat().filter((p) => overpaid(p) > 0);
  const refunds = await withDb(ctx, "payment", (db) =>
    db.collection("refunds").find({ organization_id: ctx.organizationId }).toArray(),
  );
  for (const note of notes) {
    const mine = refunds.filter((r) => r.credit_note_id === note.svc_id && r.kind !== "overpayment");
    const what = `credit note ${note.number} (refund ${note.refund_amount_cents})`;
    if (note.refund_status !== "succeeded") breaches.push(`${what}: refund_status ${note.refund_status}`);
    if (mine.length !== 1) breaches.push(`${what}: ${mine.length} refund records`);
    else if (mine[0]!.status !== "succeeded" || mine[0]!.amount_cents !== note.refund_amount_cents)
      breaches.push(`${what}: its refund is ${mine[0]!.status} of ${mine[0]!.amount_cents}`);
  }
  for (const p of overpayments) {
    const mine = refunds.filter((r) => r.kind === "overpayment" && r.payment_id === p.svc_id);
    const what = `payment ${p.svc_id} (overpaid ${overpaid(p)})`;
    if (p.overpayment_status !== "refunded") breaches.push(`${what}: overpayment_status ${p.overpayment_status}`);
    if (mine.length !== 1 || mine[0]!.amount_cents !== overpaid(p) || mine[0]!.status !== "succeeded") {
      breaches.push(`${what}: refund records ${JSON.stringify(mine.map((r) => [r.status, r.amount_cents]))}`);
    }
  }
  return { name: REFUNDS, checked: notes.length + overpayments.length, breaches };
}

/** The (webhook type, object id) pairs the run's records must have been announced by. */
function expectedWebhooks(s: Snapshot): Array<{ type: string; id: string }> {
  const expected: Array<{ type: string; id: string }> = [];
  for (const c of s.customers) expected.push({ type: "customer.created", id: c.svc_id });
  for (const i of s.invoices.filter(finalized))
    expected.push({ type: i.invoice_type === "one_off" ? "invoice.one_off_created" : "invoice.created", id: i.svc_id });
  for (const p of [...s.paymentsByInvoice.values()].flat().filter(succeeded))
    expected.push({ type: "payment.succeeded", id: p.svc_id });
  for (const w of s.wallets) expected.push({ type: "wallet.created", id: w.svc_id });
  for (const tx of [...s.transactionsByWallet.values()].flat())
    expected.push({ type: "wallet_transaction.created", id: tx.svc_id });
  for (const n of s.creditNotes) expected.push({ type: "credit_note.created", id: n.svc_id });
  return expected;
}

/** Every webhook delivered at least once: each expected (type, object id) reached the receiver (waited for, bounded). */
async function webhooksDelivered(s: Snapshot, ctx: InvariantContext, timeoutMs: number): Promise<CheckResult> {
  const expected = expectedWebhooks(s);
  const seen = () =>
    new Set(
      ctx.receiver.processed.map((d) => {
        const type = d.payload.webhook_type as string;
        const object = d.payload[d.payload.object_type as string] as Json | undefined;
        return `${type}|${object?.svc_id}`;
      }),
    );
  const missing = () => {
    const got = seen();
    return expected.filter((e) => !got.has(`${e.type}|${e.id}`));
  };
  await until("every expected webhook", async () => missing().length === 0, { timeoutMs, intervalMs: 500 }).catch(
    () => undefined,
  );
  return {
    name: WEBHOOKS,
    checked: expected.length,
    breaches: missing().map((m) => `${m.type} of ${m.id} never arrived`),
  };
}

/** Messages parked by the consumers (each service's `dead_letters`; a database without the collection has none). */
export async function deadLetters(
  ctx: InvariantContext,
): Promise<Array<{ service: string; count: number; replayed: number; samples: string[] }>> {
  const found: Array<{ service: string; count: number; replayed: number; samples: string[] }> = [];
  for (const service of ctx.services) {
    found.push(
      await withDb(ctx, service, async (db) => {
        const docs = await db.collection("dead_letters").find({}).limit(1_000).toArray();
        return {
          service,
          count: docs.length,
          replayed: docs.filter((d) => d.status === "replayed" || (d.replay_count ?? 0) > 0).length,
          samples: docs
            .slice(0, 5)
            .map(
              (d) =>
                `${d.subject ?? "?"} (${d.reason ?? "?"}, ${d.deliveries ?? "?"} deliveries): ${String(d.error ?? "").slice(0, 160)}`,
            ),
        };
      }),
    );
  }
  return found;
}

/**
 * No message parked that should have succeeded: the run's workload has no poison message, so every
 * `dead_letters` is empty; nor given up on without being parked (a consumer that terminates a
 * message after its last delivery drops it: `terminated`, counted by the consumers' metrics).
 */
async function nothingParked(ctx: InvariantContext, terminated: number): Promise<CheckResult> {
  const parked = await deadLetters(ctx);
  const breaches = parked
    .filter((p) => p.count > 0)
    .map((p) => `${p.service}: ${p.count} dead letters, e.g. ${p.samples.join("; ")}`);
  const parkedCount = parked.reduce((n, p) => n + p.count, 0);
  if (terminated > parkedCount)
    breaches.push(
      `${terminated} messages terminated by the consumers (nats_consumer_messages_total{outcome="terminated"}), ${parkedCount} of them parked: the others were dropped`,
    );
  return { name: PARKED, checked: parked.length, breaches };
}

/**
 * The reconciliation of libs/reconcile over the stored data, when that library exists. It lands
 * beside this suite: it is imported dynamically, by a path computed at run time, so the suite
 * compiles and runs without it (the check is then skipped and says so).
 */
async function reconciliation(ctx: InvariantContext): Promise<CheckResult | null> {
  type Reconcile = (input: {
    mongoUrl: string;
    dbPrefix: string;
    organizationId: string;
  }) => Promise<{ checked: unknown; breaches: unknown[] }>;
  let reconcile: Reconcile | undefined;
  for (const target of [
    "@billing/reconcile",
    join(repoRoot(), "libs", "reconcile", "src", "index.ts"),
    join(repoRoot(), "libs", "reconcile", "dist", "index.js"),
  ]) {
    try {
      const mod = (await import(target)) as { reconcile?: Reconcile; default?: { reconcile?: Reconcile } };
      reconcile = mod.reconcile ?? mod.default?.reconcile;
      if (reconcile) break;
    } catch {
      // not there (yet): the next place, or no reconciliation
    }
  }
  if (!reconcile) return null;
  const result = await reconcile({
    mongoUrl: ctx.mongoUrl,
    dbPrefix: ctx.dbPrefix,
    organizationId: ctx.organizationId,
  });
  const checked =
    typeof result.checked === "number"
      ? result.checked
      : Array.isArray(result.checked)
        ? result.checked.length
        : result.checked && typeof result.checked === "object"
          ? Object.values(result.checked as Record<string, number>).reduce((a, b) => a + (Number(b) || 0), 0)
          : 0;
  return { name: RECONCILE, checked, breaches: result.breaches.map((b) => JSON.stringify(b).slice(0, 600)) };
}

/**
 * Runs every check on the settled state. `webhookWaitMs`: how long deliveries may still be
 * arriving; `terminated`: how many messages the consumers terminated (their metrics).
 */
export async function checkInvariants(
  ctx: InvariantContext,
  options: { webhookWaitMs?: number; terminated?: () => number } = {},
): Promise<CheckResult[]> {
  const s = await snapshot(ctx.api);
  const results: CheckResult[] = [
    chargedAtMostOnce(s),
    chargedAtLeastOnce(s),
    topUpsCreditedOnce(s),
    walletLedgers(s),
    await refundsOnce(s, ctx),
    await webhooksDelivered(s, ctx, options.webhookWaitMs ?? 60_000),
    await nothingParked(ctx, options.terminated?.() ?? 0),
  ];
  const reconciled = await reconciliation(ctx).catch((err: unknown) => ({
    name: RECONCILE,
    checked: 0,
    breaches: [`reconcile threw: ${String(err)}`],
  }));
  if (reconciled) results.push(reconciled);
  return results;
}

/** One line per check: ok or BREACH, with the breaches under it. */
export function describeChecks(results: readonly CheckResult[]): string {
  return results
    .map(
      (r) =>
        `${r.breaches.length ? "BREACH" : "ok    "} ${r.name} (${r.checked} checked)${r.breaches.map((b) => `\n         - ${b}`).join("")}`,
    )
    .join("\n");
}
