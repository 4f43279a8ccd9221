// Benchmark of @billing/pricing (built CommonJS output). Run: npm run bench:pricing
// Prints one line per measure, then one JSON object as the last line.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const pricing = require("../../libs/pricing/dist/index.js");
const { Decimal, compileCharge, computeChargeFee, aggregate, computeInvoiceTotals, payInAdvanceFee } = pricing;

const TARGETS = { graduated_fees_per_s: 200_000, sum_agg_1m_events_ms: 1000 };

/** Calls fn(i) for about `ms` milliseconds after a warm-up; returns calls per second. */
function throughput(fn, ms = 2000) {
  for (let i = 0; i < 20_000; i++) fn(i);
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 1000; i++) fn(calls + i);
    calls += 1000;
    elapsed = performance.now() - start;
  }
  return Math.round((calls / elapsed) * 1000);
}

// Aggregation results as the usage service hands them over: decimal units, varied across tiers.
const UNITS = Array.from({ length: 4096 }, (_, i) => new Decimal(((i * 7919) % 250_000) + (i % 100) / 100));
const aggregation = (i) => ({ units: UNITS[i & 4095], eventsCount: 12 });

const graduated = compileCharge("graduated", {
  graduated_ranges: [
    { from_value: 0, to_value: 100, per_unit_amount: "0.05", flat_amount: "1" },
    { from_value: 101, to_value: 1000, per_unit_amount: "0.04", flat_amount: "0" },
    { from_value: 1001, to_value: 10000, per_unit_amount: "0.03", flat_amount: "5" },
    { from_value: 10001, to_value: 100000, per_unit_amount: "0.02", flat_amount: "0" },
    { from_value: 100001, to_value: null, per_unit_amount: "0.01", flat_amount: "10" },
  ],
});
const volume = compileCharge("volume", {
  volume_ranges: [
    { from_value: 0, to_value: 1000, per_unit_amount: "0.05", flat_amount: "1" },
    { from_value: 1001, to_value: 100000, per_unit_amount: "0.03", flat_amount: "0" },
    { from_value: 100001, to_value: null, per_unit_amount: "0.01", flat_amount: "10" },
  ],
});
const percentage = compileCharge("percentage", {
  rate: "1.3",
  fixed_amount: "0.25",
  free_units_per_events: 3,
  free_units_per_total_aggregation: "250",
});
const runningTotal = [new Decimal(50), new Decimal(150), new Decimal(400)];

const results = {};
const report = (name, value, unit) => {
  results[name] = value;
  console.log(`${name.padEnd(28)} ${value.toLocaleString("en-US").padStart(12)} ${unit}`);
};

report(
  "graduated_fees_per_s",
  throughput((i) => computeChargeFee({ charge: graduated, aggregation: aggregation(i), currency: "EUR" })),
  "fees/s (5 ranges)",
);
report(
  "volume_fees_per_s",
  throughput((i) => computeChargeFee({ charge: volume, aggregation: aggregation(i), currency: "EUR" })),
  "fees/s",
);
report(
  "percentage_fees_per_s",
  throughput((i) =>
    computeChargeFee({ charge: percentage, aggregation: { ...aggregation(i), runningTotal }, currency: "EUR" }),
  ),
  "fees/s",
);

// 1M in-memory events of one metric in one period: integers and decimals, as numbers and strings.
const from = new Date("2024-03-01T00:00:00Z");
const to = new Date("2024-03-31T23:59:59.999Z");
const events = Array.from({ length: 1_000_000 }, (_, i) => ({
  transaction_id: `tx-${i}`,
  timestamp: new Date(from.getTime() + (i % 2_600_000) * 1000),
  properties: { value: i % 4 === 0 ? String((i % 997) / 8) : i % 4 === 1 ? (i % 313) * 1.25 : i % 1000 },
}));
const sumMetric = { aggregation_type: "sum_agg", field_name: "value" };
aggregate(sumMetric, events.slice(0, 10_000), { from, to });
const timings = [];
let total;
for (let run = 0; run < 5; run++) {
  const start = performance.now();
  total = aggregate(sumMetric, events, { from, to });
  timings.push(performance.now() - start);
}
timings.sort((a, b) => a - b);
report(
  "sum_agg_1m_events_ms",
  Math.round(timings[2]),
  `ms (median of 5; Σ = ${total.units.toString()}, ${total.eventsCount} events)`,
);

const invoiceFees = Array.from({ length: 20 }, (_, i) => ({
  fee_type: "charge",
  amount_cents: 1000 + i * 37,
  billable_metric_code: `m${i % 4}`,
  plan_code: "p1",
  taxes: [{ code: "vat", rate: "20" }],
}));
const coupons = [
  { id: "c1", coupon_type: "percentage", frequency: "forever", percentage_rate: "10", billable_metric_codes: ["m1"] },
  {
    id: "c2",
    coupon_type: "fixed_amount",
    frequency: "recurring",
    amount_cents: 500,
    amount_currency: "EUR",
    frequency_duration_remaining: 3,
  },
];
report(
  "invoice_totals_per_s",
  throughput(
    () =>
      computeInvoiceTotals({
        currency: "EUR",
        fees: invoiceFees,
        applied_coupons: coupons,
        wallets: [{ id: "w", balance_cents: 5000 }],
        finalizing: true,
      }),
    1000,
  ),
  "invoices/s (20 fees, 2 coupons, 1 wallet)",
);

const standard = { charge_model: "standard", properties: { amount: "0.02" } };
const periodEvents = Array.from({ length: 100 }, (_, i) => ({
  timestamp: new Date(from.getTime() + i * 60_000),
  properties: { value: 3 },
}));
report(
  "pay_in_advance_fees_per_s",
  throughput(
    (i) =>
      payInAdvanceFee({
        charge: standard,
        metric: sumMetric,
        event: periodEvents[99],
        periodEvents,
        highWaterMark: { current: "297", max: String(297 + (i % 5)) },
        currency: "EUR",
      }),
    1000,
  ),
  "fees/s (100 events in the period)",
);

results.targets_met =
  results.graduated_fees_per_s >= TARGETS.graduated_fees_per_s &&
  results.sum_agg_1m_events_ms < TARGETS.sum_agg_1m_events_ms;
results.node = process.version;
console.log(JSON.stringify(results));
