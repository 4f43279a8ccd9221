import { Router } from "express";
import type { WalletMessages, WalletRpc } from "@billing/contracts";
import type { RpcClient } from "@billing/grpc";
import { presentMeta, presentWallet, presentWalletTransaction } from "@billing/views";
import { organizationId } from "../../http/context";
import { topLevelKey } from "../../http/fields";
import { pathParam, replied, replySender, rpcOptions } from "../../http/rpc-route";
import { pageQuery, parseFields, stringParam, wrapped } from "../../http/validation";
import { toWalletMessage, toWalletTransactionMessage, transactionFilters } from "./to-message";
import { walletCreateSchema, walletSchema, walletTransactionSchema } from "./validators";

/** /api/v1/wallets and /api/v1/wallet_transactions: validation and shape only; the wallet service decides. */
export function walletsRouter(wallets: RpcClient<WalletRpc>): Router {
  const router = Router();
  const send = replySender("wallet", (w: WalletMessages.Wallet__Output) => presentWallet(w));
  const walletKey = (req: Parameters<typeof organizationId>[0]) => ({
    organization_id: organizationId(req),
    wallet_id: pathParam(req, "id"),
  });

  router.post("/wallets", async (req, res) => {
    const body = parseFields(walletCreateSchema, wrapped(req, "wallet"), topLevelKey);
    send(
      res,
      await wallets.call(
        "CreateWallet",
        { organization_id: organizationId(req), wallet: toWalletMessage(body) },
        rpcOptions(req),
      ),
    );
  });
  router.get("/wallets", async (req, res) => {
    const message = {
      organization_id: organizationId(req),
      page: pageQuery(req),
      external_customer_id: stringParam(req.query.external_customer_id),
    };
    const reply = await wallets.call("ListWallets", message, rpcOptions(req));
    res.json({ wallets: reply.wallets.map(presentWallet), meta: presentMeta(reply.meta) });
  });
  router.get("/wallets/:id", async (req, res) =>
    send(res, await wallets.call("GetWallet", walletKey(req), rpcOptions(req))),
  );
  router.put("/wallets/:id", async (req, res) => {
    const body = parseFields(walletSchema, wrapped(req, "wallet"), topLevelKey);
    send(
      res,
      await wallets.call("UpdateWallet", { ...walletKey(req), wallet: toWalletMessage(body) }, rpcOptions(req)),
    );
  });
  router.delete("/wallets/:id", async (req, res) =>
    send(res, await wallets.call("TerminateWallet", walletKey(req), rpcOptions(req))),
  );

  router.post("/wallet_transactions", async (req, res) => {
    const body = parseFields(walletTransactionSchema, wrapped(req, "wallet_transaction"), topLevelKey);
    const message = { organization_id: organizationId(req), wallet_transaction: toWalletTransactionMessage(body) };
    const reply = await wallets.call("CreateWalletTransactions", message, rpcOptions(req));
    res.json({ wallet_transactions: reply.wallet_transactions.map(presentWalletTransaction) });
  });
  router.get("/wallet_transactions/:id", async (req, res) => {
    const message = { organization_id: organizationId(req), wallet_transaction_id: pathParam(req, "id") };
    const reply = await wallets.call("GetWalletTransaction", message, rpcOptions(req));
    res.json({ wallet_transaction: presentWalletTransaction(replied(reply.wallet_transaction, "wallet_transaction")) });
  });
  router.get("/wallets/:id/wallet_transactions", async (req, res) => {
    const reply = await wallets.call(
      "ListWalletTransactions",
      { ...walletKey(req), ...transactionFilters(req) },
      rpcOptions(req),
    );
    res.json({
      wallet_transactions: reply.wallet_transactions.map(presentWalletTransaction),
      meta: presentMeta(reply.meta),
    });
  });
  return router;
}
