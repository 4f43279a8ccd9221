import {
  Rpc,
  type CatalogRpc,
  type CreditNoteRpc,
  type CustomerRpc,
  type FeeRpc,
  type InvoicingRpc,
  type PaymentMessages,
  type WalletRpc,
} from "@billing/contracts";
import { AppError } from "@billing/errors";
import { RpcClient } from "@billing/grpc";
import {
  presentBillableMetric,
  presentCreditNote,
  presentCustomer,
  presentInvoice,
  presentListedFee,
  presentPayment,
  presentPlan,
  presentSubscription,
  presentWallet,
  presentWalletTransaction,
} from "@billing/views";
import type { ObjectRef } from "../domain/webhook-events";
import { paymentMessage } from "../grpc/payment-messages";
import type { PaymentRepository } from "../persistence/payment-repository";

/**
 * A webhook's object as the API returns it (the gateway's own presenters), read from the service
 * that owns it when the delivery is made, the way Lago serializes the record when its webhook job
 * runs. Null when the object is gone (a deleted plan): the event's own view is sent then.
 */
export interface WebhookObjects {
  render(organizationId: string, ref: ObjectRef): Promise<unknown | null>;
  close(): void;
}

/** Extra renderers the service adds for its own objects (payment requests). */
export type OwnRenderers = Partial<
  Record<ObjectRef["kind"], (organizationId: string, id: string) => Promise<unknown | null>>
>;

const orNull = async <T>(read: () => Promise<T>): Promise<T | null> => {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.kind === "not_found") return null;
    throw err;
  }
};

export function grpcWebhookObjects(
  addresses: { customer: string; catalog: string; invoicing: string; wallet: string },
  payments: PaymentRepository,
  own: OwnRenderers = {},
): WebhookObjects {
  const customers = new RpcClient<CustomerRpc>(Rpc.customer, addresses.customer, 10_000);
  const subscriptions = new RpcClient<CatalogRpc["subscriptions"]>(
    Rpc.catalog.subscriptions,
    addresses.catalog,
    10_000,
  );
  const plans = new RpcClient<CatalogRpc["plans"]>(Rpc.catalog.plans, addresses.catalog, 10_000);
  const metrics = new RpcClient<CatalogRpc["billableMetrics"]>(Rpc.catalog.billableMetrics, addresses.catalog, 10_000);
  const invoicing = new RpcClient<InvoicingRpc>(Rpc.invoicing, addresses.invoicing, 10_000);
  const creditNotes = new RpcClient<CreditNoteRpc>(Rpc.creditNotes, addresses.invoicing, 10_000);
  const wallets = new RpcClient<WalletRpc>(Rpc.wallet, addresses.wallet, 10_000);
  const fees = new RpcClient<FeeRpc>(Rpc.fees, addresses.invoicing, 10_000);

  const render = async (org: string, ref: ObjectRef): Promise<unknown | null> => {
    switch (ref.kind) {
      case "customer": {
        const c = await orNull(() =>
          customers.call("GetCustomer", { organization_id: org, external_id: ref.externalId }),
        );
        return c?.customer ? presentCustomer(c.customer) : null;
      }
      case "subscription": {
        const s = await orNull(() =>
          subscriptions.call("GetSubscription", {
            organization_id: org,
            external_id: ref.externalId,
            status: ref.status,
          }),
        );
        return s?.subscription ? presentSubscription(s.subscription, { withPlan: true }) : null;
      }
      case "plan": {
        const p = await orNull(() => plans.call("GetPlan", { organization_id: org, code: ref.code }));
        return p?.plan ? presentPlan(p.plan) : null;
      }
      case "billable_metric": {
        const m = await orNull(() => metrics.call("GetBillableMetric", { organization_id: org, code: ref.code }));
        return m?.billable_metric ? presentBillableMetric(m.billable_metric) : null;
      }
      case "invoice": {
        const i = await orNull(() => invoicing.call("GetInvoice", { organization_id: org, id: ref.id }));
        return i?.invoice ? presentInvoice(i.invoice) : null;
      }
      case "fee": {
        const f = await orNull(() => fees.call("GetFee", { organization_id: org, id: ref.id }));
        return f?.fee ? presentListedFee(f.fee) : null;
      }
      case "credit_note": {
        const n = await orNull(() => creditNotes.call("GetCreditNote", { organization_id: org, id: ref.id }));
        return n?.credit_note ? presentCreditNote(n.credit_note) : null;
      }
      case "wallet": {
        const w = await orNull(() => wallets.call("GetWallet", { organization_id: org, wallet_id: ref.id }));
        return w?.wallet ? presentWallet(w.wallet) : null;
      }
      case "wallet_transaction": {
        const t = await orNull(() =>
          wallets.call("GetWalletTransaction", { organization_id: org, wallet_transaction_id: ref.id }),
        );
        return t?.wallet_transaction ? presentWalletTransaction(t.wallet_transaction) : null;
      }
      case "payment": {
        const p = await payments.find(org, ref.id);
        // the message as a client reads it: absent optional fields are null here, which the presenter reads alike
        return p ? presentPayment(paymentMessage(p) as PaymentMessages.Payment__Output) : null;
      }
      case "event_view":
        return null;
      default: {
        const renderer = own[ref.kind];
        return renderer ? renderer(org, ref.id) : null;
      }
    }
  };
  return {
    render,
    close: () =>
      [customers, subscriptions, plans, metrics, invoicing, fees, creditNotes, wallets].forEach((c) => c.close()),
  };
}
