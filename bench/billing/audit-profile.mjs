// Profiling aid for the invoice audit (not a benchmark): re-derives, in THIS process, the charge
// fees of the finalized invoice a `BENCH_AUDIT_KEEP=1 node bench/billing/audit.mjs` run left behind,
// with the usage service's built code (services/usage/dist), so that
// `node --cpu-prof bench/billing/audit-profile.mjs` profiles the read and the pricing without the
// services around. Env: MONGO_URL and DB_PREFIX (printed by the kept bench), RUNS (3).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { MongoClient } = require("mongodb");
const { usageCollections } = require("../../services/usage/dist/persistence/collections.js");
const { rederiveCharges } = require("../../services/usage/dist/use-cases/audit/rederive-charges.js");
const { parseChargeSnapshot } = require("../../services/usage/dist/use-cases/audit/charge-snapshot.js");

const client = await MongoClient.connect(process.env.MONGO_URL);
try {
  const prefix = process.env.DB_PREFIX;
  const invoice = await client
    .db(`${prefix}_invoicing`)
    .collection("invoices")
    .findOne({ status: "finalized", "fees.charge_snapshot": { $exists: true } });
  const fees = invoice.fees.filter((f) => f.charge_snapshot);
  const snapshots = [...new Map(fees.map((f) => [f.charge_snapshot, parseChargeSnapshot(f.charge_snapshot)])).values()];
  const collections = usageCollections({ db: client.db(`${prefix}_usage`) });
  const input = {
    organizationId: invoice.organization_id,
    externalSubscriptionId: fees[0].external_subscription_id,
    snapshots,
    billedThrough: null,
    lateLimit: 20,
  };
  for (let i = 0; i < Number(process.env.RUNS ?? 3); i++) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const charges = await rederiveCharges({ collections }, input);
    const used = process.cpuUsage(cpu);
    console.log(
      `${(performance.now() - t).toFixed(0)} ms (CPU ${((used.user + used.system) / 1000).toFixed(0)} ms): ${charges.map((c) => `${c.eventsRead} events → ${c.fees.map((f) => `${f.units} units ${f.amountCents}`).join(" / ")}`).join("; ")}`,
    );
  }
  console.log("invoiced:", fees.map((f) => `${f.units} units ${f.amount_cents}`).join(" / "));
} finally {
  await client.close();
}
