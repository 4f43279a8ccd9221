import { afterAll, beforeAll, expect } from "vitest";
import { startE2E, type E2E } from "./platform";
import { checkedApi, customer, instant, type Api, type Json } from "./scenario";

/** A sandbox organization of a test file's platform, and its API client (answers checked against Lago's OpenAPI). */
export interface Sandbox {
  organization_id: string;
  api_key: string;
  as: Api;
}

/**
 * Creates a sandbox organization whose time stands still at `frozenTime` until its test clock is
 * advanced (`e2e.sandbox`: the customer service's use case, as `npm run org:create` runs it).
 */
export async function openSandbox(e2e: E2E, name: string, frozenTime: string): Promise<Sandbox> {
  const organization = await e2e.sandbox(name, frozenTime);
  return { ...organization, as: checkedApi(e2e.platform.baseUrl, organization.api_key) };
}

/** An ordinary organization (system clock) of a test file's platform, and its API client. */
export async function openOrganization(e2e: E2E, name: string): Promise<Sandbox> {
  const organization = await e2e.organization(name);
  return { ...organization, as: checkedApi(e2e.platform.baseUrl, organization.api_key) };
}

/** A scenario file's platform: started once before its stories, stopped after them. */
export interface ScenarioPlatform {
  /** a sandbox organization frozen at `frozenTime` */
  sandbox(name: string, frozenTime: string): Promise<Sandbox>;
  /** an ordinary organization (system clock) */
  organization(name: string): Promise<Sandbox>;
  /**
   * A story's start: a sandbox organization frozen at `frozenTime` with its customer "acme"
   * (EUR; `customerFields` add to or override that), and its API client.
   */
  story(name: string, frozenTime: string, customerFields?: Json): Promise<Api>;
  /** the platform's NATS server (a test reads the events its services publish) */
  natsUrl(): string;
}

/** Starts ONE platform for a scenario file (`beforeAll`) and stops it after the file (`afterAll`). */
export function scenarioPlatform(label: string, env?: Record<string, string>): ScenarioPlatform {
  let e2e: E2E | undefined;
  beforeAll(async () => {
    e2e = await startE2E(label, env);
    // A fresh platform's durable consumers first replay what the shared NATS streams still hold of
    // earlier runs, and a test clock cannot step until they have caught up: wait for that here, once
    // (a probe organization's clock moves one minute), rather than in the file's first story. The
    // shared platform was warmed up so before the first file.
    if (e2e.shared) return;
    const probe = await openSandbox(e2e, `${label} warm-up`, "2024-01-01T00:00:00Z");
    await advanceClock(probe.as, "2024-01-01T00:01:00Z", 170_000);
  }, 180_000);
  // every sandbox a story opened: its finalized invoices are audited at the file's end
  const opened: Sandbox[] = [];
  afterAll(async () => {
    try {
      if (e2e) await auditFinalizedInvoices(opened);
    } finally {
      await e2e?.stop();
    }
  }, 120_000);
  const started = () => {
    if (!e2e) throw new Error(`the ${label} platform is not started`);
    return e2e;
  };
  const sandbox = async (name: string, frozenTime: string) => {
    const opened_ = await openSandbox(started(), name, frozenTime);
    opened.push(opened_);
    return opened_;
  };
  return {
    sandbox,
    organization: (name) => openOrganization(started(), name),
    story: async (name, frozenTime, customerFields = {}) => {
      const { as } = await sandbox(name, frozenTime);
      await customer(as, "acme", customerFields);
      return as;
    },
    natsUrl: () => started().natsUrl,
  };
}

/** GET /test_clock's clock. */
export async function clockOf(as: Api): Promise<{ frozen_time: string; status: string }> {
  const reply = await as("GET", "/test_clock");
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.test_clock;
}

/** Polls GET /test_clock until the clock is `ready` (bounded), and returns it. */
export async function awaitReady(as: Api, timeoutMs = 60_000): Promise<{ frozen_time: string; status: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const clock = await clockOf(as);
    if (clock.status === "ready") return clock;
    if (Date.now() > deadline)
      throw new Error(`test clock still ${clock.status} after ${timeoutMs} ms: ${JSON.stringify(clock)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Moves a sandbox organization's test clock to `to`: POST /test_clock/advance, then GET /test_clock
 * until `ready` (every effect due up to `to` has happened in every service), bounded.
 */
export async function advanceClock(as: Api, to: string, timeoutMs = 60_000): Promise<void> {
  const started = await as("POST", "/test_clock/advance", { test_clock: { frozen_time: to } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const clock = await awaitReady(as, timeoutMs);
  expect(instant(clock.frozen_time)).toBe(instant(to));
}

/**
 * Every finalized invoice of these organizations re-derived from its raw events
 * (GET /invoices/{id}/audit): fails unless each matches, naming the invoice, the fee and why.
 */
export async function auditFinalizedInvoices(sandboxes: readonly Sandbox[]): Promise<void> {
  const failures: string[] = [];
  for (const { as, organization_id } of sandboxes) {
    for (let page = 1; ; page++) {
      const list = await as("GET", `/invoices?status=finalized&per_page=100&page=${page}`);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      for (const invoice of list.body.invoices as Json[]) {
        const reply = await as("GET", `/invoices/${invoice.svc_id}/audit`);
        if (reply.status !== 200)
          failures.push(
            `${organization_id} ${invoice.number}: audit answered ${reply.status} ${JSON.stringify(reply.body)}`,
          );
        else if (!reply.body.invoice_audit.match)
          failures.push(`${organization_id} ${invoice.number}: ${JSON.stringify(reply.body.invoice_audit.mismatches)}`);
      }
      if (!list.body.meta?.next_page) break;
    }
  }
  expect(failures, "invoices whose audit does not match").toEqual([]);
}
