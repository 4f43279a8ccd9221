import { parseArgs } from "node:util";
import { connectMongo, initModels } from "@billing/mongo";
import { parseServiceConfig } from "@billing/runtime";
import { paymentConfigSchema } from "../config";
import { signingKeysOf } from "../persistence/signing-keys";
import { registerWebhookModels } from "../persistence/webhook-models";
import { WebhookRepository } from "../persistence/webhook-repository";
import { rotateWebhookKey } from "../use-cases/webhooks/rotate-webhook-key";

const USAGE = "usage: npm run webhook:rotate-key -- --organization <id> [--json]";

/**
 * npm run webhook:rotate-key -- --organization <id> [--json]
 * Gives the organization a new RSA key pair for its `jwt` webhook signatures and prints the new
 * key's kid, version and public key (base64 PEM, as GET /webhooks/json_public_key serves it from
 * now on). The payment service's replicas sign with it within WEBHOOK_KEY_CACHE_MS (60 s).
 */
async function main() {
  const { values } = parseArgs({ options: { organization: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean" } } });
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
    const webhooks = new WebhookRepository(registerWebhookModels(connection));
    await initModels(connection);
    const keys = signingKeysOf(webhooks, { issuer: config.PUBLIC_URL, jwtTtlS: config.WEBHOOK_JWT_TTL_S, rsaCacheMs: 0 });
    const rotated = await rotateWebhookKey({ keys }, values.organization);
    if (values.json) {
      console.log(JSON.stringify({ organization_id: values.organization, ...rotated }));
    } else {
      console.log(`organization: ${values.organization}`);
      console.log(`key:          ${rotated.kid} (version ${rotated.version})`);
      console.log(`public key:   ${rotated.public_key}`);
      console.log(`every payment replica signs with it within ${config.WEBHOOK_KEY_CACHE_MS} ms`);
    }
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  console.error(`webhook:rotate-key failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
