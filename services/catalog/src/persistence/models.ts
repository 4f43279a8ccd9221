import { Schema, type Connection } from "mongoose";
import type { Envelope } from "@billing/bus";
import { docModel } from "@billing/mongo";
import type { Feature } from "../domain/feature";
import type { InvoiceCustomSection } from "../domain/invoice-custom-section";
import type { AddOn, BillableMetric, CatalogRecord, Coupon, Plan, Tax } from "../domain/types";

/**
 * A stored catalog record: its fields, with its id as `_id`, its `live_key` and its embedded
 * outbox. `live_key` is the code while the record lives and "deleted:<id>" afterwards, so codes
 * are unique among live records of an organization and a deleted record's code can be reused.
 */
export type CatalogDoc<R extends CatalogRecord> = Omit<R, "id"> & {
  _id: string;
  live_key: string;
  outbox?: Envelope[];
};

/** What every catalog document has. */
export type CatalogDocBase = CatalogDoc<CatalogRecord>;

export type TaxDoc = CatalogDoc<Tax>;
export type BillableMetricDoc = CatalogDoc<BillableMetric>;
export type AddOnDoc = CatalogDoc<AddOn>;
export type CouponDoc = CatalogDoc<Coupon>;
export type PlanDoc = CatalogDoc<Plan>;
export type InvoiceCustomSectionDoc = CatalogDoc<InvoiceCustomSection>;
export type FeatureDoc = CatalogDoc<Feature>;

/** The fields every catalog collection declares. */
const catalogFields = {
  _id: String,
  organization_id: { type: String, required: true },
  code: { type: String, required: true },
  live_key: { type: String, required: true },
  created_at: Date,
  updated_at: Date,
  deleted_at: Date,
  outbox: [Schema.Types.Mixed],
};

/** The options and indexes every catalog collection has. */
const catalogOptions = (collection: string) => ({ versionKey: false as const, minimize: false, collection });
function withCatalogIndexes<S extends Pick<Schema, "index">>(schema: S): S {
  schema.index({ organization_id: 1, live_key: 1 }, { unique: true });
  schema.index({ organization_id: 1, deleted_at: 1, created_at: -1, _id: -1 });
  return schema;
}

const taxSchema = withCatalogIndexes(
  new Schema<TaxDoc>(
    {
      ...catalogFields,
      name: String,
      description: String,
      rate: String,
      applied_to_organization: Boolean,
    },
    catalogOptions("taxes"),
  ),
);

const billableMetricSchema = withCatalogIndexes(
  new Schema<BillableMetricDoc>(
    {
      ...catalogFields,
      name: String,
      description: String,
      aggregation_type: String,
      field_name: String,
      recurring: Boolean,
      rounding_function: String,
      rounding_precision: Number,
      weighted_interval: String,
      expression: String,
      filters: [{ _id: false, key: String, values: [String] }],
    },
    catalogOptions("billable_metrics"),
  ),
);

const addOnSchema = withCatalogIndexes(
  new Schema<AddOnDoc>(
    {
      ...catalogFields,
      name: String,
      invoice_display_name: String,
      description: String,
      amount_cents: Number,
      amount_currency: String,
      tax_ids: [String],
    },
    catalogOptions("add_ons"),
  ),
);

const couponSchema = withCatalogIndexes(
  new Schema<CouponDoc>(
    {
      ...catalogFields,
      name: String,
      description: String,
      coupon_type: String,
      amount_cents: Number,
      amount_currency: String,
      percentage_rate: String,
      reusable: Boolean,
      frequency: String,
      frequency_duration: Number,
      expiration: String,
      expiration_at: Date,
      plan_codes: [String],
      billable_metric_ids: [String],
      limited_plans: Boolean,
      limited_billable_metrics: Boolean,
      status: String,
      terminated_at: Date,
    },
    catalogOptions("coupons"),
  ),
);

const planSchema = withCatalogIndexes(
  new Schema<PlanDoc>(
    {
      ...catalogFields,
      name: String,
      description: String,
      invoice_display_name: String,
      interval: String,
      amount_cents: Number,
      amount_currency: String,
      trial_period: Number,
      pay_in_advance: Boolean,
      bill_charges_monthly: Boolean,
      bill_fixed_charges_monthly: Boolean,
      tax_ids: [String],
      minimum_commitment: Schema.Types.Mixed,
      usage_thresholds: [Schema.Types.Mixed],
      charges: [Schema.Types.Mixed],
      fixed_charges: [Schema.Types.Mixed],
      metadata: Schema.Types.Mixed,
      parent_id: String,
    },
    catalogOptions("plans"),
  ),
);

const invoiceCustomSectionSchema = withCatalogIndexes(
  new Schema<InvoiceCustomSectionDoc>(
    {
      ...catalogFields,
      name: String,
      description: String,
      details: String,
      display_name: String,
      applied_to_organization: Boolean,
    },
    catalogOptions("invoice_custom_sections"),
  ),
).index({ organization_id: 1, applied_to_organization: 1, deleted_at: 1 });

const featureSchema = withCatalogIndexes(
  new Schema<FeatureDoc>(
    {
      ...catalogFields,
      name: String,
      description: String,
      privileges: [Schema.Types.Mixed],
    },
    catalogOptions("features"),
  ),
);

export function registerModels(connection: Connection) {
  return {
    taxes: docModel(connection, "Tax", taxSchema),
    billableMetrics: docModel(connection, "BillableMetric", billableMetricSchema),
    addOns: docModel(connection, "AddOn", addOnSchema),
    coupons: docModel(connection, "Coupon", couponSchema),
    plans: docModel(connection, "Plan", planSchema),
    invoiceCustomSections: docModel(connection, "InvoiceCustomSection", invoiceCustomSectionSchema),
    features: docModel(connection, "Feature", featureSchema),
    childPlans: docModel(connection, "ChildPlan", planSchema.clone().set("collection", "child_plans")),
  };
}

export type Models = ReturnType<typeof registerModels>;
