import { parseArgs } from "node:util";
import { connectMongo } from "@billing/mongo";
import { parseServiceConfig } from "@billing/runtime";
import { paymentConfigSchema } from "../config";
import { OVERPAYMENT_HANDLINGS, PaymentSettings, registerSettingsModel } from "../persistence/payment-settings";
import { setOverpaymentHandling } from "../use-cases/settings/set-overpayment-handling";

const USAGE = `usage: npm run payment:settings -- --organization <id> [--overpayment-handling ${OVERPAYMENT_HANDLINGS.join("|")}] [--json]`;

/**
 * npm run payment:settings -- --organization <id> [--overpayment-handling refund|manual] [--json]
 * Shows an organization's payment settings, or sets what is done with the part of a provider's
 * success its invoice could not take: `refund` (default) through the provider, `manual` recorded
 * for the organization to give back. Read by every payment replica at each overpayment.
 */
async function main() {
  const { values } = parseArgs({ options: { organization: { type: "string" }, "overpayment-handling": { type: "string" }, json: { type: "boolean" }, help: { type: "boolean" } } });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.organization) {
    console.error(USAGE);
    process.exit(2);
  }
  // the service's own configuration (MONGO_URL, MONGO_DB: billing_payment by default)
  const config = parseServiceConfig("payment", paymentConfigSchema);
  const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB });
  try {
    const settings = new PaymentSettings(registerSettingsModel(connection));
    const handling = values["overpayment-handling"] === undefined
      ? await settings.overpaymentHandling(values.organization)
      : await setOverpaymentHandling({ settings }, values.organization, values["overpayment-handling"], new Date());
    if (values.json) console.log(JSON.stringify({ organization_id: values.organization, overpayment_handling: handling }));
    else console.log(`organization: ${values.organization}\noverpayment handling: ${handling}`);
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`payment:settings failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
