import type { Clock } from "@billing/clock";
import type { CustomSections } from "../peers/custom-sections";
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
  /** The catalog's invoice custom sections (absent: sections sent are ignored and none are shown, e.g. tests without the catalog). */
  sections?: CustomSections;
  clock: Clock;
}
