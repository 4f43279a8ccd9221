import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api";
import { crashLoad } from "../support/crash";
import { ok, type Json } from "../support/scenario";
import { startE2E, type E2E } from "../support/platform";

/**
 * Pay-in-advance fees while invoicing processes die (billing-rules §1.12): a burst of 20,000 events (4,000 in `npm test`)
 * on pay-in-advance charges (most on a charge whose fees wait for their invoice, every 100th on an
 * invoiceable charge: one invoice each); the invoicing service is killed with SIGKILL and restarted
 * three times while it makes the fees. Afterwards: exactly one fee per event, each with the amount
 * its event pays, one finalized invoice per invoiceable fee, invoice numbers unique and gap-free.
 * Progressive billing at the same time (billing-rules §5): the plan also bills the tokens in arrears
 * (0.01 each) and has usage thresholds of 5.00 and 10.00, which the subscriptions' tokens cross
 * during the burst (about 16.00 each): each crossing is invoiced once (each threshold applied on
 * exactly one progressive_billing invoice of its subscription, whatever the kills), each invoice bills
 * the period's usage so far credited by the previous one, and the numbering stays gap-free.
 */
const EVENTS = crashLoad("ADVANCE_CRASH_EVENTS", 4_000, 20_000);
/** 400 events per subscription, whatever the load, so that its tokens cross both thresholds */
const SUBSCRIPTIONS = EVENTS / 400;
const CALL_EVERY = 100;
/** the plan's usage thresholds (cents of in-arrears usage in the period) */
const THRESHOLDS = [500, 1_000];

let e2e: E2E;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  e2e = await startE2E("advance_crash");
  const org = await e2e.organization("Crash advance");
  call = api(e2e.platform.baseUrl, org.api_key);
  await ok(
    call("PUT", "/billing_entities/default", {
      billing_entity: { document_numbering: "per_billing_entity", document_number_prefix: "ADV" },
    }),
  );
  const metric = async (code: string, extra: Json) =>
    (await ok(call("POST", "/billable_metrics", { billable_metric: { name: code, code, ...extra } }))).billable_metric
      .svc_id;
  const tokens = await metric("tokens", { aggregation_type: "sum_agg", field_name: "tokens" });
  const calls = await metric("calls", { aggregation_type: "count_agg" });
  await ok(
    call("POST", "/plans", {
      plan: {
        name: "Advance",
        code: "advance",
        interval: "monthly",
        amount_cents: 0,
        amount_currency: "EUR",
        pay_in_advance: false,
        charges: [
          {
            billable_metric_id: tokens,
            charge_model: "standard",
            pay_in_advance: true,
            invoiceable: false,
            properties: { amount: "0.01" },
          },
          {
            billable_metric_id: calls,
            charge_model: "standard",
            pay_in_advance: true,
            invoiceable: true,
            properties: { amount: "2" },
          },
          // progressive billing counts the in-arrears charges: the same tokens, 0.01 each
          {
            billable_metric_id: tokens,
            charge_model: "standard",
            pay_in_advance: false,
            properties: { amount: "0.01" },
          },
        ],
        usage_thresholds: THRESHOLDS.map((amount_cents) => ({ amount_cents })),
      },
    }),
  );
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    await ok(
      call("POST", "/subscriptions", {
        subscription: {
          external_customer_id: `c${i % 10}`,
          plan_code: "advance",
          external_id: `s${i}`,
          billing_time: "calendar",
        },
      }),
    );
  }
  // the usage service's copy of the last subscription (its ingest refuses events of unknown ones)
  for (let i = 0; i < 300; i++) {
    const r = await call("POST", "/events/estimate_fees", {
      event: { code: "tokens", external_subscription_id: `s${SUBSCRIPTIONS - 1}`, properties: { tokens: 1 } },
    });
    if (r.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

const feeCount = async () => (await ok(call("GET", "/fees?per_page=1"))).meta.total_count as number;

async function untilFees(count: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = await feeCount().catch(() => 0); // the invoicing service may be restarting
    if (n >= count || Date.now() > deadline) return n;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every item of a list, 250 a page (a page the busy test server answers too late, 504, is asked again). */
async function all(path: string, key: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; ; page++) {
    let res: Json | undefined;
    for (let attempt = 0; !res; attempt++) {
      const r = await call("GET", `${path}${path.includes("?") ? "&" : "?"}per_page=250&page=${page}`);
      if (r.status === 200) res = r.body;
      else if (r.status !== 504 || attempt >= 5) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    }
    items.push(...res[key]);
    if (!res.meta.next_page) return items;
  }
}

const tokensOf = (n: number) => (n % 7) + 1;

describe("pay-in-advance fees survive kill -9 of invoicing", () => {
  it(`${EVENTS} events, invoicing killed three times while it makes their fees: one fee per event, one invoice per invoiceable fee`, async () => {
    const sent = Array.from({ length: EVENTS }, (_, n) => n);
    const sending = (async () => {
      for (let i = 0; i < sent.length; i += 800) {
        await Promise.all(
          Array.from({ length: Math.min(8, Math.ceil((sent.length - i) / 100)) }, (_, k) => {
            const start = i + k * 100;
            const events = sent.slice(start, start + 100).map((n) =>
              n % CALL_EVERY === 0
                ? { transaction_id: `e${n}`, external_subscription_id: `s${n % SUBSCRIPTIONS}`, code: "calls" }
                : {
                    transaction_id: `e${n}`,
                    external_subscription_id: `s${n % SUBSCRIPTIONS}`,
                    code: "tokens",
                    properties: { tokens: tokensOf(n) },
                  },
            );
            return ok(call("POST", "/events/batch", { events }));
          }),
        );
      }
    })();
    // kill at fixed points of the fee making (whatever its speed), while events still arrive: 20 %,
    // 50 % and 80 % of the fees stored (invoicing makes the fees; the usage service takes the events)
    const atKills: number[] = [];
    for (const share of [0.2, 0.5, 0.8]) {
      atKills.push(await untilFees(Math.floor(share * EVENTS), 300_000));
      await e2e.platform.kill("invoicing", "SIGKILL");
      await e2e.platform.start("invoicing");
    }
    await sending;
    // the first kill cut the fee making short (at the smallest load too)
    expect(atKills[0]).toBeLessThan(EVENTS);
    const total = await untilFees(EVENTS, 300_000);
    console.log(`pay-in-advance crash test: ${EVENTS} events, fees stored at each kill: ${atKills.join(", ")}`);
    expect(total).toBe(EVENTS);
    // an invoiceable fee is stored with its invoice's id, and shows it once that invoice is finalized
    // (a `generating` invoice is not visible yet): wait for the last ones to be
    const deadline = Date.now() + 120_000;
    while (
      (await call("GET", "/invoices?invoice_type=subscription&per_page=1")).body?.meta?.total_count !==
        EVENTS / CALL_EVERY &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 200));
    }
    // the thresholds each subscription's tokens cross (0.01 each)
    const tokensBySubscription = new Map<string, number>();
    for (let n = 0; n < EVENTS; n++) {
      if (n % CALL_EVERY !== 0)
        tokensBySubscription.set(
          `s${n % SUBSCRIPTIONS}`,
          (tokensBySubscription.get(`s${n % SUBSCRIPTIONS}`) ?? 0) + tokensOf(n),
        );
    }
    // s0 also gets every call, whose pay-in-advance invoices (2.00 each) count as its invoiced lifetime
    // usage: its thresholds may be passed by those before its tokens cross them (as the progressive
    // check counts lifetime usage): it is only checked for doubled thresholds
    const progressiveSubscriptions = [...tokensBySubscription.keys()].filter((external) => external !== "s0");
    const crossedBy = (external: string) => THRESHOLDS.filter((t) => t <= tokensBySubscription.get(external)!);
    const crossings = progressiveSubscriptions.reduce((n, external) => n + crossedBy(external).length, 0);
    // every crossing invoiced: as many applied thresholds as crossings (were one doubled, more)
    const applied = async () =>
      (await all("/invoices?invoice_type=progressive_billing", "invoices")).flatMap((i) => i.applied_usage_thresholds);
    while ((await applied()).length < crossings && Date.now() < deadline + 120_000) {
      await new Promise((r) => setTimeout(r, 500));
    }

    const fees = await all("/fees", "fees");
    expect(fees).toHaveLength(EVENTS);
    expect(new Set(fees.map((f) => f.event_transaction_id)).size).toBe(EVENTS);
    // every tokens event raises its subscription's sum: it pays its own tokens at 0.01 each (cents = tokens)
    const wrong = fees.filter((f) => {
      const n = Number(String(f.event_transaction_id).slice(1));
      return n % CALL_EVERY === 0
        ? f.item.code !== "calls" || f.amount_cents !== 200 || !f.svc_invoice_id
        : f.item.code !== "tokens" || f.amount_cents !== tokensOf(n) || f.svc_invoice_id !== null;
    });
    expect(wrong.map((f) => [f.event_transaction_id, f.item.code, f.amount_cents, f.svc_invoice_id])).toEqual([]);

    const everyInvoice = await all("/invoices", "invoices");
    const invoices = everyInvoice.filter((i) => i.invoice_type === "subscription");
    expect(invoices).toHaveLength(EVENTS / CALL_EVERY);
    expect(invoices.every((i) => i.status === "finalized" && i.total_amount_cents === 200)).toBe(true);
    expect(new Set(invoices.map((i) => i.svc_id))).toEqual(
      new Set(fees.filter((f) => f.svc_invoice_id).map((f) => f.svc_invoice_id)),
    );

    // progressive billing: each threshold of each subscription invoiced exactly once
    const listed = everyInvoice.filter((i) => i.invoice_type === "progressive_billing");
    expect(listed.length + invoices.length).toBe(everyInvoice.length);
    // a listed invoice lacks its subscriptions (as Lago's list): each read whole
    const progressive: Json[] = [];
    for (const entry of listed) progressive.push((await ok(call("GET", `/invoices/${entry.svc_id}`))).invoice);
    const bySubscription = new Map<string, Json[]>();
    for (const i of progressive) {
      expect(i.billing_periods).toHaveLength(1);
      const external = i.billing_periods[0].external_subscription_id as string;
      bySubscription.set(external, [...(bySubscription.get(external) ?? []), i]);
    }
    const problems: unknown[] = [];
    for (let s = 0; s < SUBSCRIPTIONS; s++) {
      const external = `s${s}`;
      // oldest first: each bills the period's usage so far, credited by what the previous one billed
      const list = (bySubscription.get(external) ?? []).sort((a, b) => a.fees_amount_cents - b.fees_amount_cents);
      const thresholds = list
        .flatMap((i) => i.applied_usage_thresholds.map((a: Json) => a.usage_threshold.amount_cents))
        .sort((a, b) => a - b);
      const expected =
        external === "s0" ? crossedBy(external).filter((t) => thresholds.includes(t)) : crossedBy(external);
      if (JSON.stringify(thresholds) !== JSON.stringify(expected)) problems.push({ external, thresholds, expected });
      let billed = 0;
      for (const i of list) {
        const highest = Math.max(...i.applied_usage_thresholds.map((a: Json) => a.usage_threshold.amount_cents));
        const sound =
          i.status === "finalized" &&
          i.progressive_billing_credit_amount_cents === billed &&
          // s0's thresholds may be reached by its calls' invoices (its lifetime usage), not its tokens
          (external === "s0" || i.fees_amount_cents >= highest) &&
          i.fees_amount_cents <= tokensBySubscription.get(external)! &&
          i.total_amount_cents === i.fees_amount_cents - billed;
        if (!sound)
          problems.push({
            external,
            invoice: i.number,
            fees: i.fees_amount_cents,
            credit: i.progressive_billing_credit_amount_cents,
            total: i.total_amount_cents,
            billed,
          });
        billed = i.fees_amount_cents;
      }
    }
    expect(problems).toEqual([]);
    console.log(`pay-in-advance crash test: ${progressive.length} progressive invoices for ${crossings} crossings`);

    // one numbering for both kinds: unique and gap-free
    const sequences = everyInvoice.map((i) => Number(String(i.number).split("-").at(-1))).sort((a, b) => a - b);
    expect(sequences).toEqual(sequences.map((_, k) => k + 1));
  }, 900_000);
});
