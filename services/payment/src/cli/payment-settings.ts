import { parseArgs } from "node:util";
import { OVERPAYMENT_HANDLINGS, PaymentSettings, registerSettingsModel } from "../persistence/payment-settings";
import { setOverpaymentHandling } from "../use-cases/settings/set-overpayment-handling";
import { runOrganizationCommand } from "./organization-command";

const USAGE = `usage: npm run payment:settings -- --organization <id> [--overpayment-handling ${OVERPAYMENT_HANDLINGS.join("|")}] [--json]`;

/**
 * npm run payment:settings -- --organization <id> [--overpayment-handling refund|manual] [--json]
 * Shows an organization's payment settings, or sets what is done with the part of a provider's
 * success its invoice could not take: `refund` (default) through the provider, `manual` recorded
 * for the organization to give back. Read by every payment replica at each overpayment.
 */
const { values } = parseArgs({
  options: {
    organization: { type: "string" },
    "overpayment-handling": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean" },
  },
});
runOrganizationCommand("payment:settings", USAGE, values, async (organizationId, connection) => {
  const settings = new PaymentSettings(registerSettingsModel(connection));
  const handling =
    values["overpayment-handling"] === undefined
      ? await settings.overpaymentHandling(organizationId)
      : await setOverpaymentHandling({ settings }, organizationId, values["overpayment-handling"], new Date());
  if (values.json) console.log(JSON.stringify({ organization_id: organizationId, overpayment_handling: handling }));
  else console.log(`organization: ${organizationId}\noverpayment handling: ${handling}`);
});
