import type { Clock } from "@billing/clock";
import type { Customers } from "../peers/customers";
import type { Invoicing } from "../peers/invoicing";
import type { WalletLedger } from "../persistence/wallet-ledger";
import type { WalletRepository } from "../persistence/wallet-repository";

/** What every use case of the wallet service is given. */
export interface WalletDeps {
  wallets: WalletRepository;
  ledger: WalletLedger;
  customers: Customers;
  /** The invoicing service: paid top-ups are invoiced there, and settle when that invoice is paid. */
  invoicing: Invoicing;
  clock: Clock;
}
