import { isDuplicateKeyError, skipOf, type DocModel, type Filter, type PageRequest } from "@billing/mongo";
import type { AppliedCoupon, AppliedCouponCredit, AppliedCouponStatus } from "../domain/applied-coupon";
import type { Consumption } from "../domain/applied-coupon-consumption";
import { appliedCouponDocOf, toAppliedCoupon, type AppliedCouponDoc as Doc } from "./applied-coupon-model";
import { CouponSummaryReader } from "./coupon-summary-reader";
import type { CouponDoc } from "./models";

export interface AppliedCouponFilter {
  status?: AppliedCouponStatus;
  customerId?: string;
  couponIds?: string[];
}

/** The applied coupons of every organization; every query is scoped to one organization. */
export class AppliedCouponRepository {
  /** The coupons applied coupons come from, deleted ones included. */
  readonly coupons: CouponSummaryReader;

  constructor(
    private readonly model: DocModel<Doc>,
    couponModel: DocModel<CouponDoc>,
  ) {
    this.coupons = new CouponSummaryReader(couponModel);
  }

  /** "duplicate" when the coupon is not reusable and already applied to that customer. */
  async insert(applied: AppliedCoupon): Promise<"ok" | "duplicate"> {
    try {
      await this.model.collection.insertOne(appliedCouponDocOf(applied));
      return "ok";
    } catch (err) {
      if (isDuplicateKeyError(err)) return "duplicate";
      throw err;
    }
  }

  async reuseKeyTaken(organizationId: string, reuseKey: string): Promise<boolean> {
    return (await this.model.exists({ organization_id: organizationId, reuse_key: reuseKey })) !== null;
  }

  async anyOfCoupon(organizationId: string, couponId: string): Promise<boolean> {
    return (await this.model.exists({ organization_id: organizationId, coupon_id: couponId })) !== null;
  }

  async find(organizationId: string, id: string, customerId?: string): Promise<AppliedCoupon | null> {
    const filter: Filter<Doc> = customerId
      ? { organization_id: organizationId, _id: id, customer_id: customerId }
      : { organization_id: organizationId, _id: id };
    const doc = await this.model.findOne(filter).lean<Doc>();
    return doc ? toAppliedCoupon(doc) : null;
  }

  /** Newest first, `_id` as tiebreaker. */
  async list(
    organizationId: string,
    filter: AppliedCouponFilter,
    page: PageRequest,
  ): Promise<{ items: AppliedCoupon[]; total: number }> {
    const query: Filter<Doc> = { organization_id: organizationId };
    if (filter.status) query.status = filter.status;
    if (filter.customerId) query.customer_id = filter.customerId;
    if (filter.couponIds) query.coupon_id = { $in: filter.couponIds };
    const [docs, total] = await Promise.all([
      this.model.find(query).sort({ created_at: -1, _id: -1 }).skip(skipOf(page)).limit(page.perPage).lean<Doc[]>(),
      this.model.countDocuments(query),
    ]);
    return { items: docs.map(toAppliedCoupon), total };
  }

  /** A customer's active applied coupons, oldest first (the order invoicing applies them in). */
  async activeOfCustomer(organizationId: string, customerId: string): Promise<AppliedCoupon[]> {
    const docs = await this.model
      .find({ organization_id: organizationId, customer_id: customerId, status: "active" })
      .sort({ created_at: 1, _id: 1 })
      .lean<Doc[]>();
    return docs.map(toAppliedCoupon);
  }

  /** Terminates one applied coupon if it is active; the first termination date stays. */
  async terminate(organizationId: string, id: string, now: Date): Promise<void> {
    await this.model.collection.updateOne(
      { _id: id, organization_id: organizationId, status: "active" },
      { $set: { status: "terminated", terminated_at: now, updated_at: now } },
    );
  }

  /** Terminates every active applied coupon of a coupon (when the coupon is deleted). */
  async terminateAllOfCoupon(organizationId: string, couponId: string, now: Date): Promise<void> {
    await this.model.collection.updateMany(
      { organization_id: organizationId, coupon_id: couponId, status: "active" },
      { $set: { status: "terminated", terminated_at: now, updated_at: now } },
    );
  }

  /**
   * Appends a credit and sets the counters in one conditional update: it applies only while the
   * applied coupon is active, still holds the counters `current` was read with, and holds no
   * credit of that invoice. Returns the updated applied coupon, or null when nothing matched.
   */
  async recordCredit(
    current: AppliedCoupon,
    credit: AppliedCouponCredit,
    next: Consumption,
    now: Date,
  ): Promise<AppliedCoupon | null> {
    const doc = await this.model.collection.findOneAndUpdate(
      {
        _id: current.id,
        organization_id: current.organization_id,
        status: "active",
        "credits.invoice_id": { $ne: credit.invoice_id },
        amount_cents_remaining: current.amount_cents_remaining,
        frequency_duration_remaining: current.frequency_duration_remaining,
      },
      {
        $set: {
          amount_cents_remaining: next.amount_cents_remaining,
          frequency_duration_remaining: next.frequency_duration_remaining,
          updated_at: now,
          ...(next.terminated ? { status: "terminated" as const, terminated_at: now } : {}),
        },
        $push: { credits: credit },
      },
      { returnDocument: "after" },
    );
    return doc ? toAppliedCoupon(doc) : null;
  }

  /**
   * Gives back a voided invoice's credit, once: conditional on the invoice not yet given back and
   * on the counters and status as read (a concurrent consumption or recredit makes it read again).
   */
  async recordRecredit(
    current: AppliedCoupon,
    invoiceId: string,
    next: { amount_cents_remaining: number | null; frequency_duration_remaining: number | null; reactivated: boolean },
    now: Date,
  ): Promise<boolean> {
    const res = await this.model.collection.updateOne(
      {
        _id: current.id,
        organization_id: current.organization_id,
        status: current.status,
        recredited_invoice_ids: { $ne: invoiceId },
        amount_cents_remaining: current.amount_cents_remaining,
        frequency_duration_remaining: current.frequency_duration_remaining,
      },
      {
        $set: {
          amount_cents_remaining: next.amount_cents_remaining,
          frequency_duration_remaining: next.frequency_duration_remaining,
          updated_at: now,
          ...(next.reactivated ? { status: "active" as const, terminated_at: null } : {}),
        },
        $push: { recredited_invoice_ids: invoiceId },
      },
    );
    return res.modifiedCount === 1;
  }
}
