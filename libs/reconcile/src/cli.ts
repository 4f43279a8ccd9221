#!/usr/bin/env node
import { parseArgs } from "node:util";
import { formatJson, formatText } from "./format";
import { DEFAULT_GRACE_MS, reconcile, type ReconcileScope } from "./reconcile";
import { SERVICE_DATABASES, type ServiceDatabase } from "./read";

const USAGE = `usage: npm run reconcile -- (--organization <id> | --all) [--json] [--db-prefix <prefix>] [--grace-seconds <n>]

Checks every money invariant over the services' stored records (read-only) and prints each breach
with the records involved: wallet ledgers, invoice totals, invoice payments, coupon consumption,
invoice numbering, provider payment attempts, credit note refunds, top-up settlement.

  --organization <id>   one organization
  --all                 every organization, one after the other
  --json                one JSON object: {ok, organizations, checked, skipped, breaches}
  --db-prefix <prefix>  the services' databases are <prefix>_<service> (default: $RECONCILE_DB_PREFIX or "billing")
  --grace-seconds <n>   records changed less than n seconds ago are left for the next run where work on
                        them may be under way (default: $RECONCILE_GRACE_SECONDS or ${DEFAULT_GRACE_MS / 1000})

Reads MONGO_URL (default mongodb://127.0.0.1:27017); RECONCILE_DB_<SERVICE> (e.g. RECONCILE_DB_WALLET)
names a service's database when it is not <prefix>_<service>.
Exit status: 0 no breach, 1 at least one breach, 2 bad usage or the databases could not be read.`;

function usage(code: 0 | 2, problem?: string): never {
  if (problem) console.error(problem);
  (code === 0 ? console.log : console.error)(USAGE);
  process.exit(code);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        organization: { type: "string" },
        all: { type: "boolean" },
        json: { type: "boolean" },
        "db-prefix": { type: "string" },
        "grace-seconds": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    usage(2, (err as Error).message);
  }
  const { values } = parsed;
  if (values.help) usage(0);
  if (!values.organization === !values.all) usage(2, "give --organization <id> or --all");
  const graceText = values["grace-seconds"] ?? process.env.RECONCILE_GRACE_SECONDS;
  const graceSeconds = graceText === undefined || graceText === "" ? DEFAULT_GRACE_MS / 1000 : Number(graceText);
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0)
    usage(2, `--grace-seconds must be a number of seconds, got ${String(graceText)}`);
  const databases: Partial<Record<ServiceDatabase, string>> = {};
  for (const s of SERVICE_DATABASES) {
    const name = process.env[`RECONCILE_DB_${s.toUpperCase()}`];
    if (name) databases[s] = name;
  }
  const scope: ReconcileScope = values.all ? { all: true } : { organizationId: values.organization! };
  const result = await reconcile({
    ...scope,
    mongoUrl: process.env.MONGO_URL || "mongodb://127.0.0.1:27017",
    dbPrefix: values["db-prefix"] || process.env.RECONCILE_DB_PREFIX || "billing",
    databases,
    graceMs: graceSeconds * 1000,
  });
  console.log(values.json ? formatJson(result) : formatText(result));
  return result.breaches.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`reconcile failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
