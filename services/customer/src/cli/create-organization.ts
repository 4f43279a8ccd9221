import { parseArgs } from "node:util";
import { systemClock } from "@billing/clock";
import { connectMongo, initModels } from "@billing/mongo";
import { parseServiceConfig } from "@billing/runtime";
import { customerConfigSchema } from "../config";
import { hashApiKey } from "../domain/api-key";
import { registerModels } from "../persistence/models";
import { OrganizationRepository } from "../persistence/organization-repository";
import { createOrganization } from "../use-cases/organizations/create-organization";

/**
 * npm run org:create -- --name <name> [--api-key <key>] [--sandbox [--frozen-time <ISO 8601>]] [--json]
 * Creates an organization with its default billing entity and prints its API key. A sandbox
 * organization's time stands still (at --frozen-time, default now) until its test clock is advanced.
 * With --api-key, an organization that already has that key is reused; a key that was revoked is
 * refused with a clear message (a revoked key never works again).
 */
async function main() {
  const { values } = parseArgs({
    options: {
      name: { type: "string" },
      "api-key": { type: "string" },
      json: { type: "boolean" },
      sandbox: { type: "boolean" },
      "frozen-time": { type: "string" },
    },
  });
  const frozenTime = values["frozen-time"] ? new Date(values["frozen-time"]) : undefined;
  if (!values.name || (frozenTime && Number.isNaN(frozenTime.getTime())) || (frozenTime && !values.sandbox)) {
    console.error(
      "usage: npm run org:create -- --name <name> [--api-key <key>] [--sandbox [--frozen-time <ISO 8601>]] [--json]",
    );
    process.exit(2);
  }
  const sandbox = values.sandbox ? { frozenTime: frozenTime ?? new Date() } : undefined;
  // the service's own configuration (MONGO_URL, MONGO_DB: billing_customer by default)
  const config = parseServiceConfig("customer", customerConfigSchema);
  const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB });
  try {
    const models = registerModels(connection);
    await initModels(connection);
    const organizations = new OrganizationRepository(models);
    const requested = values["api-key"];
    const existing = requested ? await organizations.findByKeyHash(hashApiKey(requested)) : null;
    const result = existing
      ? { organization: existing, apiKey: requested! }
      : await createOrganization(
          { organizations, clock: systemClock },
          { name: values.name, apiKey: requested, sandbox },
        );
    if (values.json) {
      const clock = result.organization.test_clock
        ? { frozen_time: result.organization.test_clock.frozen_time.toISOString() }
        : {};
      console.log(
        JSON.stringify({
          organization_id: result.organization.id,
          name: result.organization.name,
          api_key: result.apiKey,
          ...clock,
        }),
      );
    } else {
      console.log(
        `organization: ${result.organization.name} (${result.organization.id})${existing ? " [existing]" : ""}`,
      );
      console.log(`api key:      ${result.apiKey}`);
      if (result.organization.test_clock)
        console.log(`test clock:   sandbox, frozen at ${result.organization.test_clock.frozen_time.toISOString()}`);
    }
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`org:create failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
