import type { Connection } from "mongoose";
import { AppError } from "@billing/errors";
import { connectMongo } from "@billing/mongo";
import { parseServiceConfig } from "@billing/runtime";
import { paymentConfigSchema } from "../config";

/** The payment service's settings, its own and the shared ones. */
const loadConfig = () => parseServiceConfig("payment", paymentConfigSchema);

/**
 * The frame of the payment service's operator commands that act on one organization: `--help`
 * prints the usage, a missing `--organization` exits 2 with it, then the work runs on the service's
 * own database (its configuration: MONGO_URL, MONGO_DB, billing_payment by default), closed after;
 * a failure is printed and exits 1.
 */
export function runOrganizationCommand(
  name: string,
  usage: string,
  values: { organization?: string; help?: boolean },
  work: (organizationId: string, connection: Connection, config: ReturnType<typeof loadConfig>) => Promise<void>,
): void {
  const run = async () => {
    if (values.help) {
      console.log(usage);
      return;
    }
    if (!values.organization) {
      console.error(usage);
      process.exit(2);
    }
    const config = loadConfig();
    const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB });
    try {
      await work(values.organization, connection, config);
    } finally {
      await connection.close();
    }
  };
  run().catch((err) => {
    const why =
      err instanceof AppError && err.details
        ? `${err.message} ${JSON.stringify(err.details)}`
        : err instanceof Error
          ? err.message
          : String(err);
    console.error(`${name} failed: ${why}`);
    process.exit(1);
  });
}
