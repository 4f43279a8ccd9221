/**
 * The fault suite's HTTP client of one organization: status and parsed body, a deadline on every
 * request. While a fault is in flight the gateway may answer 502/503/504 or not at all: reads are
 * tried again until `retryForMs` has passed; writes are sent once unless the caller says the
 * request is safe to repeat (an upsert, or a read-like POST), so no money moves twice because of
 * the client itself.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
export interface Reply {
  status: number;
  body: Json;
}
export interface CallOptions {
  /** Repeat on a transport failure or a 502/503/504 (default: GET only). */
  retry?: boolean;
  /** How long to keep repeating (60 s). */
  retryForMs?: number;
  /** One attempt's deadline (20 s). */
  timeoutMs?: number;
}

const TRANSIENT = new Set([502, 503, 504]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Reply> {
    const retry = options.retry ?? method === "GET";
    const deadline = Date.now() + (options.retryForMs ?? 60_000);
    for (let attempt = 1; ; attempt++) {
      let failure: string;
      try {
        const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
          method,
          headers: { "content-type": "application/json", authorization: `Bearer ${this.apiKey}` },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
        });
        const text = await res.text();
        let parsed: Json;
        try {
          parsed = text ? (JSON.parse(text) as Json) : {};
        } catch {
          parsed = { raw: text };
        }
        if (!retry || !TRANSIENT.has(res.status) || Date.now() > deadline) return { status: res.status, body: parsed };
        failure = `${res.status} ${text.slice(0, 200)}`;
      } catch (err) {
        failure = String(err);
        if (!retry || Date.now() > deadline) throw new Error(`${method} ${path}: ${failure}`);
      }
      await sleep(Math.min(200 * attempt, 2_000));
      void failure;
    }
  }

  /** The body of a 200 answer; anything else throws, naming the request and the answer. */
  async ok(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Json> {
    const reply = await this.call(method, path, body, options);
    if (reply.status !== 200) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  get(path: string): Promise<Json> {
    return this.ok("GET", path);
  }

  /** Every item of a list endpoint (`key` in its body), page after page of 100. */
  async all(path: string, key: string): Promise<Json[]> {
    const items: Json[] = [];
    for (let page = 1; ; page++) {
      const res = await this.get(`${path}${path.includes("?") ? "&" : "?"}per_page=100&page=${page}`);
      items.push(...(res[key] as Json[]));
      if (!res.meta?.next_page) return items;
    }
  }
}

/** Polls `check` until it answers something truthy, or throws after `timeoutMs` naming `what` and the last error. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  { timeoutMs = 60_000, intervalMs = 250 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await sleep(intervalMs);
  }
}

/** Cents of a decimal amount string ("30.00" → 3000), exact (no float arithmetic). */
export function cents(amount: string | number): number {
  const text = String(amount);
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match || /[1-9]/.test((match[3] ?? "").slice(2))) throw new Error(`not an amount in cents: ${text}`);
  const [, sign, whole, fraction = ""] = match;
  const value = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
  return sign ? -value : value;
}
