import { Schema, type Connection, type SchemaDefinition } from "mongoose";

/**
 * Every catalog collection: `live_key` is the code while the record lives and
 * "deleted:<id>" afterwards, so codes are unique among live records of an organization
 * and a deleted record's code can be reused.
 */
function catalogSchema(collection: string, fields: SchemaDefinition) {
  const schema = new Schema(
    {
      _id: String,
      organization_id: { type: String, required: true },
      code: { type: String, required: true },
      live_key: { type: String, required: true },
      ...fields,
      created_at: Date,
      updated_at: Date,
      deleted_at: Date,
      outbox: [Schema.Types.Mixed],
    },
    { versionKey: false, minimize: false, collection },
  );
  schema.index({ organization_id: 1, live_key: 1 }, { unique: true });
  schema.index({ organization_id: 1, deleted_at: 1, created_at: -1, _id: -1 });
  return schema;
}

const taxSchema = catalogSchema("taxes", {
  name: String, description: String, rate: String, applied_to_organization: Boolean,
});

const billableMetricSchema = catalogSchema("billable_metrics", {
  name: String, description: String, aggregation_type: String, field_name: String, recurring: Boolean,
  rounding_function: String, rounding_precision: Number, weighted_interval: String, expression: String,
  filters: [{ _id: false, key: String, values: [String] }],
});

const addOnSchema = catalogSchema("add_ons", {
  name: String, invoice_display_name: String, description: String, amount_cents: Number, amount_currency: String,
  tax_ids: [String],
});

const couponSchema = catalogSchema("coupons", {
  name: String, description: String, coupon_type: String, amount_cents: Number, amount_currency: String,
  percentage_rate: String, reusable: Boolean, frequency: String, frequency_duration: Number, expiration: String,
  expiration_at: Date, plan_codes: [String], billable_metric_ids: [String], limited_plans: Boolean,
  limited_billable_metrics: Boolean, status: String, terminated_at: Date,
});

const planSchema = catalogSchema("plans", {
  name: String, description: String, invoice_display_name: String, interval: String, amount_cents: Number,
  amount_currency: String, trial_period: Number, pay_in_advance: Boolean, bill_charges_monthly: Boolean,
  bill_fixed_charges_monthly: Boolean, tax_ids: [String], minimum_commitment: Schema.Types.Mixed,
  usage_thresholds: [Schema.Types.Mixed], charges: [Schema.Types.Mixed], fixed_charges: [Schema.Types.Mixed],
  metadata: Schema.Types.Mixed, parent_id: String,
});

const invoiceCustomSectionSchema = catalogSchema("invoice_custom_sections", {
  name: String, description: String, details: String, display_name: String, applied_to_organization: Boolean,
}).index({ organization_id: 1, applied_to_organization: 1, deleted_at: 1 });

const featureSchema = catalogSchema("features", {
  name: String, description: String, privileges: [Schema.Types.Mixed],
});

export function registerModels(connection: Connection) {
  return {
    taxes: connection.model("Tax", taxSchema),
    billableMetrics: connection.model("BillableMetric", billableMetricSchema),
    addOns: connection.model("AddOn", addOnSchema),
    coupons: connection.model("Coupon", couponSchema),
    plans: connection.model("Plan", planSchema),
    invoiceCustomSections: connection.model("InvoiceCustomSection", invoiceCustomSectionSchema),
    features: connection.model("Feature", featureSchema),
    childPlans: connection.model("ChildPlan", planSchema.clone().set("collection", "child_plans")),
  };
}

export type Models = ReturnType<typeof registerModels>;
