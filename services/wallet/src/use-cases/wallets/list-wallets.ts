import type { PageRequest } from "@billing/mongo";
import type { WalletDeps } from "../deps";

/** GET /wallets?external_customer_id=: newest first. */
export function listWallets(
  deps: WalletDeps,
  organizationId: string,
  externalCustomerId: string | undefined,
  page: PageRequest,
) {
  return deps.wallets.list(organizationId, externalCustomerId, page);
}
