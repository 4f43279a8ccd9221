import type { WalletRpc } from "@billing/contracts";
import type { Handlers } from "@billing/grpc";
import { pageMeta, pageRequestOf } from "@billing/mongo";
import type { Wallet, WalletTransaction } from "../domain/wallet";
import { consumeCredits } from "../use-cases/transactions/consume-credits";
import { createWalletTransactions } from "../use-cases/transactions/create-wallet-transactions";
import { getWalletTransaction } from "../use-cases/transactions/get-wallet-transaction";
import { listWalletTransactions } from "../use-cases/transactions/list-wallet-transactions";
import type { WalletDeps } from "../use-cases/deps";
import { createWallet } from "../use-cases/wallets/create-wallet";
import { getWallet } from "../use-cases/wallets/get-wallet";
import { listActiveWallets } from "../use-cases/wallets/list-active-wallets";
import { listWallets } from "../use-cases/wallets/list-wallets";
import { terminateWallet } from "../use-cases/wallets/terminate-wallet";
import { updateWallet } from "../use-cases/wallets/update-wallet";
import {
  chosenSectionIds,
  transactionInputOf,
  transactionMessage,
  walletInputOf,
  walletMessage,
  type SectionLookup,
} from "./wallet-messages";

/** billing.wallet.v1.WalletService: proto in, use case, proto out. */
export function walletHandlers(deps: WalletDeps): Handlers<WalletRpc> {
  /** The live sections the resources chose (one catalog call, only when some chose any). */
  const lookupOf = async (
    organizationId: string,
    resources: Parameters<typeof chosenSectionIds>[0],
  ): Promise<SectionLookup> => {
    const ids = chosenSectionIds(resources);
    return ids.length && deps.sections ? deps.sections.byIds(organizationId, ids) : new Map();
  };
  const walletsOf = async (organizationId: string, list: Wallet[]) => {
    const lookup = await lookupOf(organizationId, list);
    return list.map((w) => walletMessage(w, lookup));
  };
  const oneWallet = async (w: Wallet) => ({ wallet: (await walletsOf(w.organization_id, [w]))[0]! });
  const transactionsOf = async (organizationId: string, list: WalletTransaction[]) => {
    const wallets = new Map<string, Awaited<ReturnType<typeof getWallet>>>();
    for (const tx of list)
      if (!wallets.has(tx.wallet_id)) wallets.set(tx.wallet_id, await getWallet(deps, organizationId, tx.wallet_id));
    const lookup = await lookupOf(organizationId, list);
    return list.map((tx) => transactionMessage(tx, wallets.get(tx.wallet_id)!, lookup));
  };
  return {
    CreateWallet: async (req, ctx) =>
      oneWallet(await createWallet(deps, req.organization_id, walletInputOf(req.wallet), ctx.requestId)),
    GetWallet: async (req) => oneWallet(await getWallet(deps, req.organization_id, req.wallet_id)),
    ListWallets: async (req) => {
      const page = pageRequestOf(req);
      const { items, total } = await listWallets(
        deps,
        req.organization_id,
        req.external_customer_id ?? undefined,
        page,
      );
      return { wallets: await walletsOf(req.organization_id, items), meta: pageMeta(total, page) };
    },
    UpdateWallet: async (req) =>
      oneWallet(await updateWallet(deps, req.organization_id, req.wallet_id, walletInputOf(req.wallet))),
    TerminateWallet: async (req) => oneWallet(await terminateWallet(deps, req.organization_id, req.wallet_id)),
    CreateWalletTransactions: async (req) => {
      const created = await createWalletTransactions(
        deps,
        req.organization_id,
        transactionInputOf(req.wallet_transaction),
      );
      return { wallet_transactions: await transactionsOf(req.organization_id, created) };
    },
    GetWalletTransaction: async (req) => {
      const tx = await getWalletTransaction(deps, req.organization_id, req.wallet_transaction_id);
      return { wallet_transaction: (await transactionsOf(req.organization_id, [tx]))[0]! };
    },
    ListWalletTransactions: async (req) => {
      const page = pageRequestOf(req);
      const filter = {
        status: req.status ?? undefined,
        transaction_status: req.transaction_status ?? undefined,
        transaction_type: req.transaction_type ?? undefined,
      };
      const { items, total } = await listWalletTransactions(deps, req.organization_id, req.wallet_id, filter, page);
      return { wallet_transactions: await transactionsOf(req.organization_id, items), meta: pageMeta(total, page) };
    },
    ListActiveWalletsForCustomer: async (req) => ({
      wallets: (await listActiveWallets(deps, req.organization_id, req.customer_id)).map((w) => walletMessage(w)),
    }),
    ConsumeCredits: async (req) => {
      const { transaction, wallet } = await consumeCredits(deps, req.organization_id, {
        wallet_id: req.wallet_id,
        invoice_id: req.invoice_id,
        amount_cents: Number(req.amount_cents),
      });
      return { wallet_transaction: transactionMessage(transaction, wallet) };
    },
  };
}
