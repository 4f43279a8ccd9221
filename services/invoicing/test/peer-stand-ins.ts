import {
  Rpc,
  type AppliedCouponRecreditRpc,
  type WalletRecreditRpc,
  type AdvanceFeeRpc,
  type CatalogMessages,
  type CatalogRpc,
  type WalletRpc,
  type ChargeUsageRpc,
  type CustomerMessages,
  type CustomerRpc,
  type UsageMessages,
} from "@billing/contracts";
import { AppError } from "@billing/errors";
import { bind, startGrpcServer, type GrpcServerHandle, type Handlers } from "@billing/grpc";
import { silentLogger } from "@billing/logger";
import { freePort } from "@billing/testkit";

/**
 * The invoicing service's peers as in-process gRPC servers (one address serves all three): the
 * customer service's billing entities, the catalog's applied coupons and the usage service's
 * ChargeUsage. They answer from what a test sets; MongoDB and NATS are the real ones.
 */
export interface PeerStandIns {
  address: string;
  /** billing entities by organization|code (absent: the default below) */
  entities: Map<string, Partial<CustomerMessages.BillingEntity>>;
  /** usage per subscription svc_id: [instant, units] at a unit price per charge */
  usage: Map<string, Array<{ at: string; units: number }>>;
  /** every ChargeUsage call: how many periods it priced and whether it was consistent */
  chargeUsageCalls: Array<{ periods: number; consistent: boolean }>;
  /** applied coupons per customer svc_id */
  coupons: Map<string, CatalogMessages.AppliedCoupon[]>;
  /** every ConsumeAppliedCoupon answered: applied coupon id → invoice ids (a credit recorded once per invoice) */
  consumed: Map<string, Map<string, number>>;
  /** every give-back a voided invoice asked for ("coupon|<applied coupon id>|<invoice id>", "wallets|<invoice id>"), and how many more to refuse (unavailable) first */
  recredits: { asked: string[]; refuseFirst: number };
  stop(): Promise<void>;
}

/** Every charge of the stand-in usage: a standard charge at this price per unit, in cents. */
export const UNIT_PRICE_CENTS = 50;

function entity(
  organizationId: string,
  code: string,
  given: Partial<CustomerMessages.BillingEntity> = {},
): CustomerMessages.BillingEntity {
  return {
    svc_id: `be_${organizationId.slice(0, 8)}_4c1d`,
    code,
    name: "Acme",
    default_currency: "EUR",
    document_locale: "en",
    document_numbering: "per_customer",
    document_number_prefix: "ACM-4C1D",
    finalize_zero_amount_invoice: true,
    invoice_grace_period: 0,
    subscription_invoice_issuing_date_anchor: "next_period_start",
    subscription_invoice_issuing_date_adjustment: "align_with_finalization_date",
    is_default: true,
    net_payment_term: 0,
    timezone: "UTC",
    email_settings: [],
    eu_tax_management: false,
    created_at: "2024-01-01T00:00:00.000Z",
    updated_at: "2024-01-01T00:00:00.000Z",
    taxes: [],
    ...given,
  };
}

export async function startPeerStandIns(): Promise<PeerStandIns> {
  const entities = new Map<string, Partial<CustomerMessages.BillingEntity>>();
  const usage = new Map<string, Array<{ at: string; units: number }>>();
  const chargeUsageCalls: PeerStandIns["chargeUsageCalls"] = [];
  const coupons = new Map<string, CatalogMessages.AppliedCoupon[]>();
  const consumed = new Map<string, Map<string, number>>();

  const customer = {
    GetBillingEntity: async (req: CustomerMessages.GetBillingEntityRequest__Output) => ({
      billing_entity: entity(req.organization_id, req.code, entities.get(`${req.organization_id}|${req.code}`)),
    }),
    // organizations here have no test clock (the harness's clock is the invoicing service's own)
    GetTestClock: async () => {
      throw AppError.notFound("test_clock");
    },
    // nor customers in the customer service: invoices are finalized without custom sections
    GetCustomer: async () => {
      throw AppError.notFound("customer");
    },
  } as unknown as Handlers<CustomerRpc>;

  const chargeUsage: Handlers<ChargeUsageRpc> = {
    ChargeUsage: async (req) => {
      chargeUsageCalls.push({ periods: req.periods.length, consistent: req.consistent });
      return {
        periods: req.periods.map((p: UsageMessages.ChargesPeriod__Output) => {
          const from = Date.parse(p.from);
          const to = Date.parse(p.to);
          const recorded = usage.get(p.subscription_id) ?? [];
          const inPeriod = recorded.filter((u) => Date.parse(u.at) >= from && Date.parse(u.at) <= to);
          const units = inPeriod.reduce((n, u) => n + u.units, 0);
          const cents = units * UNIT_PRICE_CENTS;
          return {
            subscription_id: p.subscription_id,
            found: true,
            fees: [
              {
                charge_id: "ch_calls",
                billable_metric_id: "bm_calls",
                billable_metric_code: "calls",
                billable_metric_name: "API calls",
                aggregation_type: "count_agg",
                charge_model: "standard",
                grouped_by: {},
                true_up: false,
                units: `${units}.0`,
                total_aggregated_units: `${units}.0`,
                events_count: inPeriod.length,
                amount_cents: cents,
                precise_amount_cents: `${cents}.0`,
                unit_amount_cents: units ? UNIT_PRICE_CENTS : 0,
                precise_unit_amount: units ? "0.5" : "0.0",
                amount_details: null,
                properties: { amount: "0.5" },
                persistable: units > 0,
                pay_in_advance: false,
                invoiceable: true,
                // what an audit re-derives the fee from (the real usage service's snapshot carries the whole charge and metric)
                charge_snapshot: {
                  v: 1,
                  charge: { svc_id: "ch_calls", billable_metric_code: "calls" },
                  from: p.from,
                  to: p.to,
                  read_through_seq: 42,
                },
              },
            ],
          };
        }),
      };
    },
  };

  const appliedCoupons = {
    ListActiveAppliedCouponsForCustomer: async (
      req: CatalogMessages.ListActiveAppliedCouponsForCustomerRequest__Output,
    ) => ({
      applied_coupons: (coupons.get(req.customer_id) ?? []).filter((c) => c.status === "active"),
    }),
    ConsumeAppliedCoupon: async (req: CatalogMessages.ConsumeAppliedCouponRequest__Output) => {
      const coupon = [...coupons.values()].flat().find((c) => c.svc_id === req.applied_coupon_id);
      if (!coupon) throw AppError.notFound("applied_coupon");
      const byInvoice = consumed.get(coupon.svc_id!) ?? new Map<string, number>();
      consumed.set(coupon.svc_id!, byInvoice);
      const credit = (amount: number) => ({
        svc_id: `credit_${req.invoice_id}_${coupon.svc_id}`,
        amount_cents: amount,
        amount_currency: req.amount_currency,
        before_taxes: true,
        item: { svc_item_id: coupon.svc_coupon_id, type: "coupon", code: coupon.coupon_code, name: coupon.coupon_name },
        invoice: { svc_id: req.invoice_id, payment_status: "pending" },
        created_at: "2024-01-01T00:00:00.000Z",
      });
      // idempotent per invoice: the same credit again, nothing consumed twice
      const given = byInvoice.get(req.invoice_id);
      if (given !== undefined) return { credit: credit(given), applied_coupon: coupon };
      if (coupon.status !== "active") throw new AppError("failed_precondition", "applied_coupon_not_active");
      byInvoice.set(req.invoice_id, Number(req.amount_cents));
      if (coupon.frequency === "once") {
        if (coupon.coupon_type === "percentage") coupon.status = "terminated";
        else {
          coupon.amount_cents_remaining =
            Number(coupon.amount_cents_remaining ?? coupon.amount_cents) - Number(req.amount_cents);
          if (coupon.amount_cents_remaining <= 0) coupon.status = "terminated";
        }
      }
      return { credit: credit(Number(req.amount_cents)), applied_coupon: coupon };
    },
  } as unknown as Handlers<CatalogRpc["appliedCoupons"]>;

  // customers here hold no wallets (the wallet service's own tests and the e2e suite cover prepaid credits)
  const wallets = {
    ListActiveWalletsForCustomer: async () => ({ wallets: [] }),
  } as unknown as Handlers<WalletRpc>;

  // no pay-in-advance charges here (services/invoicing/test/advance-fees.test.ts prices them with the real usage service)
  const advanceFees = {
    PriceAdvanceEvents: async () => ({ fees: { charges: [], fees: [] } }),
    PriceAdvanceBatch: async (req: { envelopes: Array<{ organization_id: string; envelope_id: string }> }) => ({
      envelopes: req.envelopes.map((e) => ({
        organization_id: e.organization_id,
        envelope_id: e.envelope_id,
        fees: { charges: [], fees: [] },
      })),
    }),
  } as unknown as Handlers<AdvanceFeeRpc>;

  const recredits = { asked: [] as string[], refuseFirst: 0 };
  const answer = <T>(key: string, value: T): T => {
    if (recredits.refuseFirst > 0) {
      recredits.refuseFirst--;
      throw new AppError("unavailable", "stand_in_down");
    }
    recredits.asked.push(key);
    return value;
  };
  const couponRecredits = {
    RecreditAppliedCoupon: async (req: { applied_coupon_id: string; invoice_id: string }) =>
      answer(`coupon|${req.applied_coupon_id}|${req.invoice_id}`, { recredited: true, status: "active" }),
  } as unknown as Handlers<AppliedCouponRecreditRpc>;
  const walletRecredits = {
    RecreditVoidedInvoice: async (req: { invoice_id: string }) =>
      answer(`wallets|${req.invoice_id}`, { recredits: [] }),
  } as unknown as Handlers<WalletRecreditRpc>;

  const server: GrpcServerHandle = await startGrpcServer({
    host: "127.0.0.1",
    port: await freePort(),
    logger: silentLogger,
    bindings: [
      bind(Rpc.customer, customer),
      bind(Rpc.chargeUsage, chargeUsage),
      bind(Rpc.catalog.appliedCoupons, appliedCoupons),
      bind(Rpc.wallet, wallets),
      bind(Rpc.advanceFees, advanceFees),
      bind(Rpc.appliedCouponRecredits, couponRecredits),
      bind(Rpc.walletRecredits, walletRecredits),
    ],
  });
  return {
    address: `127.0.0.1:${server.port}`,
    entities,
    usage,
    chargeUsageCalls,
    coupons,
    consumed,
    recredits,
    stop: () => server.shutdown(),
  };
}
