import type { Clock } from "@billing/clock";
import type { Customers } from "../peers/customers";
import type { WalletLedger } from "../persistence/wallet-ledger";
import type { WalletRepository } from "../persistence/wallet-repository";

/** What every use case of the wallet service is given. */
export interface WalletDeps {
  wallets: WalletRepository;
  ledger: WalletLedger;
  customers: Customers;
  clock: Clock;
}
