/**
 * The fault-injection soak: `npm run soak -- [--minutes N] [--seed S]`.
 *
 * The bounded suite's platform (real processes, its own MongoDB test server and NATS server) and
 * workload, for longer: month after month on a sandbox organization's test clock, new customers of
 * every kind (card that succeeds, that asks for a confirmation, that is declined; no provider),
 * subscriptions and usage, wallets, one-off invoices, paid top-ups, refunds, manual payments (some
 * while a card payment is processing), confirmations and retries, a billing run at each month's
 * end. Meanwhile a seeded PRNG chooses faults and their timing, one after another every 2–12 s,
 * each striking a burst of money-moving requests sent just before it: SIGSTOP of a service for
 * 5–60 s, kill -9 of a service with a new process 0–35 s later, a restart of NATS or of the MongoDB
 * test server. The seed makes the choices repeatable (the platform's own timing is not). Each fault is printed with its time; at the end the customers settle, everything is
 * waited for (bounded), and every invariant is checked and printed with its outcome. Exit code 1
 * on any breach (2 when the run itself could not be carried out).
 */
import { BACKEND_SERVICES, type ServiceName } from "@billing/testkit";
import { until, type Json } from "./support/client";
import { startFaultRun, type FaultRun } from "./support/harness";
import { checkInvariants, deadLetters, describeChecks } from "./support/invariants";
import { summaryLine } from "./support/report";
import { Workload, type CustomerKind } from "./support/workload";

interface Options {
  minutes: number;
  seed: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { minutes: 10, seed: Date.now() % 2 ** 31 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--minutes") options.minutes = Number(value());
    else if (flag === "--seed") options.seed = Number(value());
    else if (flag === "--help" || flag === "-h") {
      console.log("npm run soak -- [--minutes N (10)] [--seed S (from the clock)]");
      process.exit(0);
    } else throw new Error(`unknown option ${flag} (--minutes N, --seed S)`);
  }
  if (!(options.minutes > 0) || !Number.isInteger(options.seed))
    throw new Error("--minutes must be > 0 and --seed an integer");
  return options;
}

/** mulberry32, a small seeded PRNG: `next()` in [0, 1), integers and picks from it. */
class Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }

  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Soak {
  /** the workload's choices and the faults' (with their bursts): two sequences, so one loop's pace does not shift the other's */
  private readonly work: Rng;
  private readonly fault: Rng;
  private readonly failedSteps: string[] = [];
  private stopFaults = false;
  private readonly refunded = new Set<string>();
  private month = 0;

  constructor(
    private readonly run: FaultRun,
    private readonly workload: Workload,
    seed: number,
    private readonly deadline: number,
  ) {
    this.work = new Rng(seed);
    this.fault = new Rng(seed ^ 0x5bd1e995);
  }

  private log(line: string): void {
    console.log(`[soak] t=${this.run.faults.now().toFixed(1)}s ${line}`);
  }

  private async step<T>(what: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      // a request refused or unanswered during a fault: noted; the invariants judge what is stored
      this.failedSteps.push(what);
      this.log(`step failed: ${what}: ${(err as Error).message.slice(0, 300)}`);
      return undefined;
    }
  }

  /**
   * Faults one after another, kind, target and timing from the PRNG, until the workload ends.
   * Each strikes a burst of money-moving requests sent a moment (0–500 ms) before it, so that
   * it finds their effects (charges, settlements, refunds, events) under way.
   */
  async faults(): Promise<void> {
    const services: ServiceName[] = [...BACKEND_SERVICES, "gateway"];
    while (!this.stopFaults) {
      await sleep(this.fault.int(2, 12) * 1_000);
      if (this.stopFaults) break;
      const burst = this.burst();
      await sleep(this.fault.int(0, 500));
      const roll = this.fault.next();
      if (roll < 0.35) await this.run.faults.pause(this.fault.pick(services), this.fault.int(5, 60) * 1_000);
      else if (roll < 0.7) await this.run.faults.kill(this.fault.pick(services), this.fault.int(0, 35) * 1_000);
      else if (roll < 0.85) await this.run.faults.restartNats(this.fault.int(0, 5) * 1_000);
      else await this.run.faults.restartMongo(this.fault.int(0, 5) * 1_000);
      await burst;
    }
  }

  /** 2–6 money-moving requests at once: one-off invoices, top-ups (a manual payer's paid by hand), usage. */
  private burst(): Promise<unknown> {
    const w = this.workload;
    const customers = [...w.customers.values()];
    if (customers.length === 0) return Promise.resolve();
    const work: Array<Promise<unknown>> = [];
    for (let i = this.fault.int(2, 6); i > 0; i--) {
      const c = this.fault.pick(customers);
      const roll = this.fault.next();
      if (roll < 0.4)
        work.push(
          this.step(`burst: one-off invoice of ${c.externalId}`, () => w.oneOff(c.externalId, this.fault.int(1, 3))),
        );
      else if (roll < 0.8 && c.walletId) {
        work.push(
          this.step(`burst: top-up of ${c.externalId}`, async () => {
            const topUp = await w.buyCredits(c.externalId, this.fault.int(1, 20));
            if (c.kind === "manual") await w.payManually(topUp.invoiceId, "top-up wire");
          }),
        );
      } else if (c.subscriptionId) {
        const day = new Date(Date.UTC(2024, this.month, 1 + this.fault.int(0, 20))).toISOString();
        work.push(this.step(`burst: usage of ${c.externalId}`, () => w.usage(c.externalId, this.fault.int(1, 5), day)));
      }
    }
    return Promise.all(work);
  }

  /** One billing month: new customers and their usage, one-off invoices, top-ups, refunds, payments, then the clock across the month's end. */
  async round(): Promise<void> {
    const w = this.workload;
    const monthStart = new Date(Date.UTC(2024, this.month, 1));
    const inMonth = (day: number) => new Date(monthStart.getTime() + day * 86_400_000).toISOString();
    const kinds: CustomerKind[] = ["succeeds", "succeeds", "requires_action", "declines", "manual"];
    for (let i = this.work.int(2, 4); i > 0; i--) {
      const id = `m${this.month}_${i}`;
      const granted = this.work.next() < 0.6 ? this.work.int(0, 15) : undefined;
      await this.step(`customer ${id}`, () =>
        w.customer(id, this.work.pick(kinds), { subscribe: this.work.next() < 0.8, grantedCredits: granted }),
      );
    }
    const all = [...w.customers.values()];
    for (const c of all.filter((c) => c.subscriptionId && this.work.next() < 0.7)) {
      await this.step(`usage of ${c.externalId}`, () =>
        w.usage(c.externalId, this.work.int(1, 5), inMonth(this.work.int(1, 20))),
      );
    }
    for (let i = this.work.int(1, 2); i > 0; i--) {
      const c = this.work.pick(all);
      await this.step(`one-off invoice of ${c.externalId}`, () => w.oneOff(c.externalId, this.work.int(1, 3)));
    }
    for (const c of all.filter((c) => c.walletId && this.work.next() < 0.4)) {
      const topUp = await this.step(`top-up of ${c.externalId}`, () =>
        w.buyCredits(c.externalId, this.work.int(1, 20)),
      );
      if (topUp && c.kind === "manual")
        await this.step(`top-up of ${c.externalId} paid by hand`, () => w.payManually(topUp.invoiceId, "top-up wire"));
    }
    await this.step("refunds and races", () => this.refundsAndRaces());
    await this.step("customers settle", () => w.settleCustomers(20_000));
    // the month's end: its billing run
    this.month++;
    const next = new Date(Date.UTC(2024, this.month, 1, 0, 30)).toISOString();
    this.log(`billing run to ${next}`);
    await this.step(`advance to ${next}`, () => w.advance(next));
    await this.step(`billing run to ${next}`, () => w.clockReady(240_000));
  }

  /** A refund of some paid one-off invoices charged by card; a manual payment attempted on some invoices whose card payment is processing. */
  private async refundsAndRaces(): Promise<void> {
    const w = this.workload;
    for (const invoice of await w.invoices()) {
      if (invoice.status !== "finalized") continue;
      const payments = await w.payments(invoice.svc_id as string);
      const byCard = payments.find((p: Json) => p.type === "provider" && p.payment_status === "succeeded");
      if (
        invoice.invoice_type === "one_off" &&
        invoice.payment_status === "succeeded" &&
        byCard &&
        !this.refunded.has(invoice.svc_id) &&
        this.work.next() < 0.5
      ) {
        this.refunded.add(invoice.svc_id);
        await this.step(`refund of ${invoice.number}`, () =>
          w.refund(invoice.svc_id as string, this.work.int(1, 10) * 100),
        );
      }
      if (payments.some((p: Json) => p.payment_status === "processing") && this.work.next() < 0.3) {
        const status = await this.step(`manual payment of ${invoice.number} while its card payment is processing`, () =>
          w.payManually(invoice.svc_id as string, "wire meanwhile"),
        );
        this.log(`manual payment of ${invoice.number} while its card payment is processing: ${status}`);
      }
    }
  }

  async drive(): Promise<void> {
    const faults = this.faults();
    try {
      while (Date.now() < this.deadline) await this.round();
    } finally {
      this.stopFaults = true;
      await faults;
    }
  }

  get failures(): readonly string[] {
    return this.failedSteps;
  }
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = Date.now();
  console.log(`[soak] seed ${options.seed}, ${options.minutes} min of workload and faults`);
  const run = await startFaultRun("soak", { frozenTime: "2024-01-01T00:00:00Z" });
  console.log(`[soak] platform up after ${((Date.now() - startedAt) / 1000).toFixed(0)} s; logs in ${run.logDir}`);
  try {
    const workload = new Workload(run.api, run.receiver.url);
    await workload.setup();
    const soak = new Soak(run, workload, options.seed, Date.now() + options.minutes * 60_000);
    await soak.drive();
    console.log(`[soak] faults over; settling (workload: ${JSON.stringify(workload.counts)})`);
    const clockReady = await until(
      "the test clock ready",
      async () => (await run.api.get("/test_clock")).test_clock.status === "ready",
      { timeoutMs: 240_000, intervalMs: 1_000 },
    ).then(
      () => true,
      () => false,
    );
    const settled = await workload.settleCustomers(180_000);
    console.log(
      `[soak] customers' part ${settled ? "done" : "still under way after 180 s"}; ${soak.failures.length} workload steps failed during faults`,
    );
    const ctx = {
      api: run.api,
      receiver: run.receiver,
      mongoUrl: run.mongo.url,
      dbPrefix: run.dbPrefix,
      organizationId: run.organizationId,
      services: BACKEND_SERVICES,
    };
    await run.metrics.scrape();
    const checks = await checkInvariants(ctx, {
      webhookWaitMs: 120_000,
      terminated: () => run.metrics.totals().terminated,
    });
    // the billing runs finished: the clock was not left stepping
    checks.unshift({
      name: "the test clock settles (every billing run finished)",
      checked: 1,
      breaches: clockReady ? [] : ["the test clock is still advancing 240 s after the faults"],
    });
    console.log(describeChecks(checks));
    await run.metrics.scrape();
    const parked = await deadLetters(ctx);
    console.log(
      summaryLine({
        label: `soak seed ${options.seed}`,
        faults: run.faults.records,
        checks,
        consumers: run.metrics.totals(),
        parked: parked.reduce((n, p) => n + p.count, 0),
        replayed: parked.reduce((n, p) => n + p.replayed, 0),
        seconds: (Date.now() - startedAt) / 1000,
      }),
    );
    return checks.some((c) => c.breaches.length > 0) ? 1 : 0;
  } finally {
    await run.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[soak] the run could not be carried out: ${(err as Error).stack ?? String(err)}`);
    process.exit(2);
  },
);
