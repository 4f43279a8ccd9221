import { Schema, type Connection, type Model } from "mongoose";

/**
 * One read copy per document: `_id` is the catalog's id, `version` orders the copies (a write
 * only replaces an older version), the view is kept as JSON text so that user keys (filter
 * values keyed by event property names, which may hold `.` or `$`) survive any server.
 */
export interface CopyDocument {
  _id: string;
  organization_id: string;
  version: number;
  view_json: string;
}

const copySchema = (collection: string) =>
  new Schema<CopyDocument>(
    {
      _id: String,
      organization_id: { type: String, required: true },
      version: { type: Number, required: true },
      view_json: String,
    },
    { versionKey: false, collection },
  );

export interface CopyModels {
  metrics: Model<CopyDocument>;
  plans: Model<CopyDocument>;
  subscriptions: Model<CopyDocument>;
}

/** The three collections of read copies, registered on the usage service's connection. */
export function registerCopyModels(connection: Connection): CopyModels {
  return {
    metrics: connection.model<CopyDocument>("CatalogMetricCopy", copySchema("catalog_metric_copies")),
    plans: connection.model<CopyDocument>("CatalogPlanCopy", copySchema("catalog_plan_copies")),
    subscriptions: connection.model<CopyDocument>("CatalogSubscriptionCopy", copySchema("catalog_subscription_copies")),
  };
}
