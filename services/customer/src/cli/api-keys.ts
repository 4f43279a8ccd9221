import { parseArgs } from "node:util";
import { systemClock } from "@billing/clock";
import { connectMongo, initModels } from "@billing/mongo";
import { parseServiceConfig } from "@billing/runtime";
import { customerConfigSchema } from "../config";
import type { ApiKey } from "../domain/api-key";
import { registerModels } from "../persistence/models";
import { OrganizationRepository } from "../persistence/organization-repository";
import { createApiKey } from "../use-cases/organizations/create-api-key";
import { listApiKeys } from "../use-cases/organizations/list-api-keys";
import { revokeApiKey } from "../use-cases/organizations/revoke-api-key";

const USAGE = `usage: npm run org:key -- <command> --organization <id> [options]

  create --organization <id> [--name <name>] [--json]
      adds an API key to the organization and prints it (once: only its hash is stored)
  list --organization <id> [--json]
      the organization's keys, live and revoked: id, prefix (the key's first characters), name,
      created_at, last_used_at (to the minute), revoked_at
  revoke --organization <id> (--key-id <id> | --key-prefix <prefix>) [--json]
      refuses the key from now on (the gateway forgets it within API_KEY_CACHE_TTL_MS)

Writes to MONGO_URL / MONGO_DB (defaults mongodb://127.0.0.1:27017 / billing_customer).`;

function usage(code: number): never {
  (code === 0 ? console.log : console.error)(USAGE);
  process.exit(code);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function view(key: ApiKey) {
  return {
    id: key.id,
    organization_id: key.organization_id,
    name: key.name,
    prefix: key.prefix,
    created_at: iso(key.created_at),
    last_used_at: iso(key.last_used_at),
    revoked_at: iso(key.revoked_at),
  };
}

function table(keys: ApiKey[]): string {
  const rows = [["ID", "PREFIX", "NAME", "CREATED_AT", "LAST_USED_AT", "REVOKED_AT"]];
  for (const k of keys) {
    rows.push([
      k.id,
      k.prefix ?? "(none)",
      k.name ?? "-",
      iso(k.created_at) ?? "-",
      iso(k.last_used_at) ?? "-",
      iso(k.revoked_at) ?? "-",
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * npm run org:key -- create|list|revoke --organization <id> …: an organization's API keys, beside
 * the one `org:create` gave it. Keys are stored hashed; only their first characters are listed.
 */
async function main() {
  const options = {
    organization: { type: "string" },
    name: { type: "string" },
    "key-id": { type: "string" },
    "key-prefix": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options });
  } catch (err) {
    console.error((err as Error).message);
    usage(2);
  }
  const { values, positionals } = parsed;
  if (values.help) usage(0);
  const [command, ...extra] = positionals;
  const organizationId = values.organization;
  if (!command || extra.length > 0 || !["create", "list", "revoke"].includes(command) || !organizationId) usage(2);
  if (command === "revoke" && !values["key-id"] === !values["key-prefix"]) usage(2);
  if (command !== "create" && values.name !== undefined) usage(2);
  if (command !== "revoke" && (values["key-id"] !== undefined || values["key-prefix"] !== undefined)) usage(2);

  // the service's own configuration (MONGO_URL, MONGO_DB: billing_customer by default)
  const config = parseServiceConfig("customer", customerConfigSchema);
  const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB });
  try {
    const models = registerModels(connection);
    await initModels(connection);
    const deps = { organizations: new OrganizationRepository(models), clock: systemClock };
    if (command === "create") {
      const { key, apiKey } = await createApiKey(deps, { organizationId, name: values.name });
      if (values.json) console.log(JSON.stringify({ ...view(key), api_key: apiKey }));
      else {
        console.log(`api key:      ${apiKey}`);
        console.log(`id:           ${key.id}${key.name ? ` (${key.name})` : ""}`);
        console.log(`prefix:       ${key.prefix}`);
        console.log("(shown once: only its hash is stored)");
      }
    } else if (command === "list") {
      const keys = await listApiKeys(deps, organizationId);
      if (values.json) console.log(JSON.stringify({ api_keys: keys.map(view) }));
      else console.log(table(keys));
    } else {
      const { key, alreadyRevoked } = await revokeApiKey(deps, {
        organizationId,
        keyId: values["key-id"],
        prefix: values["key-prefix"],
      });
      if (values.json) console.log(JSON.stringify({ ...view(key), already_revoked: alreadyRevoked }));
      else
        console.log(
          `${alreadyRevoked ? "already revoked" : "revoked"}: ${key.id} (${key.prefix ?? "no prefix"}) at ${iso(key.revoked_at)}`,
        );
    }
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`org:key failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
