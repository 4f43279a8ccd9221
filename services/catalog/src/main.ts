import { startOutboxRelay } from "@billing/bus";
import { peerAddress } from "@billing/config";
import { loadService } from "@billing/grpc";
import { runBackendService } from "@billing/runtime";
import { addOnHandlers } from "./grpc/add-on-handlers";
import { appliedCouponHandlers } from "./grpc/applied-coupon-handlers";
import { billableMetricHandlers } from "./grpc/billable-metric-handlers";
import { couponHandlers } from "./grpc/coupon-handlers";
import { entitlementHandlers } from "./grpc/entitlement-handlers";
import { featureHandlers } from "./grpc/feature-handlers";
import { invoiceCustomSectionHandlers } from "./grpc/invoice-custom-section-handlers";
import { planHandlers } from "./grpc/plan-handlers";
import { subscriptionHandlers } from "./grpc/subscription-handlers";
import { taxHandlers } from "./grpc/tax-handlers";
import { grpcCustomerDirectory } from "./peers/customer-directory";
import { startSubscriptionScheduler } from "./schedule/subscription-scheduler";
import { wireCatalog } from "./wiring";

const PROTO = "billing/catalog/v1";

// The catalog service owns taxes, billable metrics, add-ons, coupons, plans and subscriptions.
void runBackendService("catalog", async ({ config, env, connection, bus, clock, logger }) => {
  const customers = grpcCustomerDirectory(peerAddress(config, "customer"));
  const { deps, outboxes } = wireCatalog(connection, { bus, clock, customers, logger });
  const relay = startOutboxRelay(bus, outboxes, logger);
  const scheduler = startSubscriptionScheduler(deps, logger, Number(env.SUBSCRIPTION_SCHEDULER_MS ?? 1000));
  return {
    bindings: [
      { service: loadService(`${PROTO}/taxes.proto`, "billing.catalog.v1.TaxService"), handlers: taxHandlers(deps) },
      { service: loadService(`${PROTO}/billable_metrics.proto`, "billing.catalog.v1.BillableMetricService"), handlers: billableMetricHandlers(deps) },
      { service: loadService(`${PROTO}/add_ons.proto`, "billing.catalog.v1.AddOnService"), handlers: addOnHandlers(deps) },
      { service: loadService(`${PROTO}/coupons.proto`, "billing.catalog.v1.CouponService"), handlers: couponHandlers(deps) },
      { service: loadService(`${PROTO}/plans.proto`, "billing.catalog.v1.PlanService"), handlers: planHandlers(deps) },
      {
        service: loadService(`${PROTO}/applied_coupons.proto`, "billing.catalog.v1.AppliedCouponService"),
        handlers: appliedCouponHandlers(deps),
      },
      { service: loadService(`${PROTO}/subscriptions.proto`, "billing.catalog.v1.SubscriptionService"), handlers: subscriptionHandlers(deps) },
      { service: loadService(`${PROTO}/features.proto`, "billing.catalog.v1.FeatureService"), handlers: featureHandlers(deps) },
      { service: loadService(`${PROTO}/entitlements.proto`, "billing.catalog.v1.EntitlementService"), handlers: entitlementHandlers(deps) },
      {
        service: loadService(`${PROTO}/invoice_custom_sections.proto`, "billing.catalog.v1.InvoiceCustomSectionService"),
        handlers: invoiceCustomSectionHandlers(deps),
      },
    ],
    onStop: async () => {
      await scheduler.stop();
      await relay.stop();
      customers.close();
    },
  };
});
