import type { DocModel, Projection } from "@billing/mongo";
import type { CouponSummary } from "../domain/applied-coupon";
import type { CouponDoc } from "./models";

const FIELDS = {
  code: 1,
  name: 1,
  coupon_type: 1,
  status: 1,
  reusable: 1,
  expiration_at: 1,
  deleted_at: 1,
  plan_codes: 1,
  billable_metric_ids: 1,
} as const satisfies Projection<CouponDoc>;
type Doc = Pick<CouponDoc, "_id" | keyof typeof FIELDS>;

/**
 * Coupons as applied coupons show them: read-only, deleted ones included (Lago shows the code
 * and name of a deleted coupon on the coupons that were applied from it).
 */
export class CouponSummaryReader {
  constructor(private readonly coupons: DocModel<CouponDoc>) {}

  async byIds(organizationId: string, ids: string[]): Promise<CouponSummary[]> {
    if (ids.length === 0) return [];
    const docs = await this.coupons.find({ organization_id: organizationId, _id: { $in: ids } }, FIELDS).lean<Doc[]>();
    return docs.map(({ _id, ...rest }) => ({
      ...rest,
      id: _id,
      expiration_at: rest.expiration_at ?? null,
      deleted_at: rest.deleted_at ?? null,
      plan_codes: rest.plan_codes ?? [],
      billable_metric_ids: rest.billable_metric_ids ?? [],
    }));
  }

  /** Ids of every coupon, deleted or not, that has or had one of these codes. */
  async idsByCodes(organizationId: string, codes: string[]): Promise<string[]> {
    if (codes.length === 0) return [];
    const docs = await this.coupons
      .find({ organization_id: organizationId, code: { $in: codes } }, { _id: 1 })
      .lean<{ _id: string }[]>();
    return docs.map((d) => d._id);
  }
}
