// Usage events of about 300 bytes, written as JSON text directly (the loader's CPU counts too).
export const MONTH_START_S = Date.parse("2026-05-01T00:00:00Z") / 1000;
export const MONTH_SECONDS = 31 * 86_400;

/** One event; `n` varies the values. Timestamps follow arrival order, spread over May. */
export function eventJson(tx, sub, code, timestampS, n) {
  return (
    `{"transaction_id":"${tx}","external_subscription_id":"${sub}","code":"${code}","timestamp":${timestampS},` +
    `"properties":{"value":${n % 100},"region":"eu-west-1","user_id":"user_${n % 5000}","path":"/api/v1/items/${n % 100000}/details",` +
    `"method":"POST","status":200,"bytes":${(n * 7919) % 65536},"agent":"bench-loader/1.0"}}`
  );
}

/** The n-th event of a run spread over May in arrival order, for `total` events (beyond it, May again). */
export const timestampFor = (n, total) => MONTH_START_S + Math.floor(((n % total) * MONTH_SECONDS) / total);

/** A 300-byte payload for the raw JetStream yardstick (the same size as one event). */
export function rawPayload() {
  const text = eventJson("bench-raw-000000000000", "sub_bench", "bench_sum", MONTH_START_S, 12345);
  return Buffer.from(text.padEnd(300, " ").slice(0, 300));
}
