import { parseArgs } from "node:util";
import { initModels } from "@billing/mongo";
import { signingKeysOf } from "../persistence/signing-keys";
import { registerWebhookModels } from "../persistence/webhook-models";
import { WebhookRepository } from "../persistence/webhook-repository";
import { rotateWebhookKey } from "../use-cases/webhooks/rotate-webhook-key";
import { runOrganizationCommand } from "./organization-command";

const USAGE = "usage: npm run webhook:rotate-key -- --organization <id> [--json]";

/**
 * npm run webhook:rotate-key -- --organization <id> [--json]
 * Gives the organization a new RSA key pair for its `jwt` webhook signatures and prints the new
 * key's kid, version and public key (base64 PEM, as GET /webhooks/json_public_key serves it from
 * now on). The payment service's replicas sign with it within WEBHOOK_KEY_CACHE_MS (60 s).
 */
const { values } = parseArgs({
  options: { organization: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean" } },
});
runOrganizationCommand("webhook:rotate-key", USAGE, values, async (organizationId, connection, config) => {
  const webhooks = new WebhookRepository(registerWebhookModels(connection));
  await initModels(connection);
  const keys = signingKeysOf(webhooks, { issuer: config.PUBLIC_URL, jwtTtlS: config.WEBHOOK_JWT_TTL_S, rsaCacheMs: 0 });
  const rotated = await rotateWebhookKey({ keys }, organizationId);
  if (values.json) {
    console.log(JSON.stringify({ organization_id: organizationId, ...rotated }));
  } else {
    console.log(`organization: ${organizationId}`);
    console.log(`key:          ${rotated.kid} (version ${rotated.version})`);
    console.log(`public key:   ${rotated.public_key}`);
    console.log(`every payment replica signs with it within ${config.WEBHOOK_KEY_CACHE_MS} ms`);
  }
});
