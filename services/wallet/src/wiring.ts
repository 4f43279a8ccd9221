import type { Connection } from "mongoose";
import type { Clock } from "@billing/clock";
import { peerAddress } from "@billing/config";
import { Rpc, type WalletRpc } from "@billing/contracts";
import { bind, type Handlers } from "@billing/grpc";
import { defineService } from "@billing/runtime";
import { walletConfigSchema } from "./config";
import { scheduledWorkHandlers } from "./grpc/scheduled-work-handlers";
import { walletHandlers } from "./grpc/wallet-handlers";
import { grpcCustomers, type Customers } from "./peers/customers";
import { registerModels, type Models } from "./persistence/models";
import { WalletLedger } from "./persistence/wallet-ledger";
import { WalletRepository } from "./persistence/wallet-repository";
import { startExpirationScheduler } from "./schedule/expiration-scheduler";
import type { WalletDeps } from "./use-cases/deps";

export interface WalletWiring {
  models: Models;
  deps: WalletDeps;
  handlers: Handlers<WalletRpc>;
}

/** Every repository of the wallet service on one connection, the use cases' dependencies and the gRPC handlers; the service and its integration tests wire it the same way. */
export function wireWallet(connection: Connection, parts: { clock: Clock; customers: Customers }): WalletWiring {
  const models = registerModels(connection);
  const deps: WalletDeps = { wallets: new WalletRepository(models), ledger: new WalletLedger(models), customers: parts.customers, clock: parts.clock };
  return { models, deps, handlers: walletHandlers(deps) };
}

/** The wallet service owns wallets and their transactions (the ledger of every credit in and out). */
export const walletService = defineService({
  name: "wallet",
  config: walletConfigSchema,
  wire: async ({ config, connection, clock, logger }) => {
    const customers = grpcCustomers(peerAddress(config, "customer"));
    const { handlers, deps } = wireWallet(connection, { clock, customers });
    const expirations = startExpirationScheduler(deps, config.WALLET_SCHEDULER_MS, logger);
    return {
      bindings: [bind(Rpc.wallet, handlers), bind(Rpc.scheduledWork, scheduledWorkHandlers(deps))],
      onStop: async () => {
        await expirations.stop();
        customers.close();
      },
    };
  },
});
