import { startInfrastructure, type Infrastructure } from "@billing/testkit";

let infra: Infrastructure | undefined;

/** Chooses the MongoDB and NATS servers for the whole run and hands their URLs to every test file. */
export async function setup(): Promise<void> {
  infra = await startInfrastructure();
  process.env.MONGO_URL = infra.mongoUrl;
  process.env.NATS_URL = infra.natsUrl;
}

export async function teardown(): Promise<void> {
  await infra?.stop();
}
