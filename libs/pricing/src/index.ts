/**
 * @billing/pricing — the money core: charge models, aggregations, billing periods, invoice math
 * and wallet conversions, pure and on decimal.js. See README.md.
 */
export { Decimal, type DecimalLike, decimalString, toDecimal, parseDecimal, isNumeric } from "./decimal";
export {
  currencyInfo,
  currencyExponent,
  toCents,
  toPreciseCents,
  fromCents,
  roundCents,
  centsNumber,
  type CurrencyInfo,
} from "./currency";

// Charge models
export type { ChargeModelName, ChargeModelInput, ChargeModelResult, AmountDetails } from "./charge-models/types";
export {
  chargeModels,
  CHARGE_MODEL_NAMES,
  compileCharge,
  applyChargeModel,
  isChargeModelName,
  type CompiledCharge,
} from "./charge-models/factory";
export {
  computeChargeFee,
  compiledChargeFor,
  type ChargeDefinition,
  type ChargeFeeAmounts,
  type ChargeFeeInput,
} from "./charge-fee";
export {
  computeChargeFees,
  computeChargeFeesFromUnits,
  eventsInPeriod,
  pricedFromUnits,
  type UsageCharge,
  type ChargePeriod,
  type ChargeFee,
  type ChargeFeesInput,
  type UnitsChargeFeesInput,
} from "./charge-fees";
export { computeTrueUpFee, type TrueUpInput, type TrueUpFee } from "./true-up";
export { payInAdvanceFee, type PayInAdvanceInput, type PayInAdvanceFee, type HighWaterMark } from "./pay-in-advance";
export { proratedPayInAdvanceFee } from "./pay-in-advance-prorated";
export { highWaterStep, type HighWaterStep } from "./aggregations/high-water-mark";
export { paidInAdvanceProratedAggregation } from "./aggregations/prorated-in-advance";
export {
  computeFixedChargeFee,
  fixedChargeAggregation,
  type FixedChargeDefinition,
  type FixedChargeUnitsLevel,
  type FixedChargeFeeInput,
} from "./fixed-charge-fee";
export { computeCommitmentTrueUp, type CommitmentTrueUpInput, type CommitmentTrueUpFee } from "./commitment";
export {
  advanceFeeStep,
  carriedIntoPeriod,
  incrementalAdvance,
  type AdvanceBucketState,
  type AdvanceStepInput,
} from "./pay-in-advance-state";
export { estimateEventFee, type EstimateInput, type EstimatedFee } from "./estimate";
export { PRECISE_SCALE } from "./unit-amount";

// Filters and groups
export {
  ALL_FILTER_VALUES,
  eventMatchesFilter,
  bucketEventsByFilter,
  payInAdvanceFilterIndex,
  type ChargeFilter,
  type MetricFilter,
} from "./filters";
export { groupEvents, pricingGroupKeys, type GroupedBy } from "./grouping";

// Aggregations
export type {
  AggregationType,
  AggregationResult,
  BillableMetric,
  UsageEvent,
  RoundingFunction,
} from "./aggregations/types";
export { aggregate, type AggregateOptions } from "./aggregations/factory";
export { runningTotal, type FreeUnitsOptions } from "./aggregations/running-total";
export { applyMetricRounding } from "./rounding";
export { parseExpression, type Expression } from "./expression/parser";
export {
  evaluateExpression,
  expressionPropertyValue,
  type ExpressionValue,
  type ExpressionEvent,
} from "./expression/evaluator";
export { ExpressionError } from "./expression/lexer";

// Billing periods
export type { LocalDate } from "./periods/local-date";
export { addDays, daysBetween, inclusiveDays, minDate } from "./periods/local-date";
export { localDateOf, startOfLocalDay, endOfLocalDay, instantMs, type Instant } from "./periods/timezone";
export {
  billingPeriodFor,
  currentBillingPeriod,
  customerDate,
  previousBillingPeriod,
  oneIntervalBack,
  nextBillingDate,
  periodContaining,
  planChangeBoundaries,
  isUpgrade,
  type BillingPeriod,
  type SubscriptionTiming,
  type PlanInterval,
  type BillingTime,
} from "./periods/billing-period";
export { dateDiffWithTimezone } from "./periods/proration";
export {
  computeSubscriptionFee,
  trialEndedAt,
  unusedDays,
  type SubscriptionFee,
  type SubscriptionFeeInput,
} from "./periods/subscription-fee";
export {
  subscriptionInvoicePeriods,
  billingCadence,
  opensPlanPeriod,
  firstAdvanceBillingDate,
  type SubscriptionInvoiceInput,
  type SubscriptionInvoicePeriods,
  type PlanTerms,
} from "./periods/invoice-periods";
export {
  invoiceIssuingDates,
  paymentDueDate,
  type IssuingDateInput,
  type IssuingDates,
  type IssuingDateAnchor,
  type IssuingDateAdjustment,
} from "./periods/issuing-date";

// Invoice math
export type {
  InvoiceFeeInput,
  TaxInput,
  AppliedCouponInput,
  CreditNoteInput,
  WalletInput,
  ProgressiveBillingCreditInput,
  FeeType,
} from "./invoice/types";
export {
  computeInvoiceTotals,
  type InvoiceTotals,
  type InvoiceTotalsInput,
  type InvoiceFeeTotals,
} from "./invoice/totals";
export { computeFeeTaxes, type FeeTaxes } from "./invoice/fee-taxes";
export {
  formatInvoiceNumber,
  draftInvoiceNumber,
  defaultDocumentNumberPrefix,
  documentNumberPrefix,
  type DocumentNumbering,
  type InvoiceNumberInput,
} from "./invoice/numbering";
export { couponAmount, orderCoupons, type CouponCredit } from "./invoice/coupons";
export type { InvoiceAppliedTax } from "./invoice/taxes";
export {
  availableToCreditCents,
  creditNoteAmounts,
  estimatedCreditAmount,
  invoiceFeeTotalCents,
  splitCreditNote,
  terminationCreditCents,
  terminationSplit,
  usedDaysCents,
  proRataItems,
  type CreditNoteAmounts,
  type CreditNoteAppliedTax,
  type CreditNoteCredit,
  type CreditNoteItemInput,
  type CreditNoteSplit,
  type CreditedFee,
} from "./invoice/credit-notes";
export type { WalletConsumption } from "./invoice/prepaid-credits";

// Wallets
export {
  creditsToCents,
  centsToCredits,
  topUpRoundsToZero,
  thresholdTopUpPaidCredits,
  targetTopUpCredits,
  allocateOngoingUsage,
  type CreditConversion,
  type OngoingWallet,
  type ThresholdTopUpInput,
} from "./wallet";

// Schemas
export {
  chargePropertiesSchema,
  chargeFilterSchema,
  propertiesErrorDetails,
  standardPropertiesSchema,
  packagePropertiesSchema,
  graduatedPropertiesSchema,
  graduatedPercentagePropertiesSchema,
  volumePropertiesSchema,
  percentagePropertiesSchema,
  dynamicPropertiesSchema,
  type ChargeProperties,
  type PerUnitRange,
  type RateRange,
} from "./schemas/charge-properties";
export { crossedUsageThresholds, type UsageThreshold, type ThresholdCheckInput } from "./invoice/usage-thresholds";
export { centsDue, ongoingBalanceCents, splitPayment, sumCents } from "./cents";

// Amounts on documents (invoice and credit note PDFs)
export { formatMoney, formatUnitPrice, formatQuantity, supportedLocale } from "./money-format";
export { usageThresholdsProgress, type UsageThresholdProgress } from "./invoice/usage-thresholds";
export {
  progressiveCreditAmount,
  progressiveExcessItems,
  type CreditableFee,
  type ProgressiveInvoiceBalance,
} from "./invoice/progressive-credit";
export { oneOffFeeAmount, type OneOffFeeAmount } from "./invoice/one-off";
export { paidFeesTotals, type PaidFeeInput, type PaidFeesTotals } from "./invoice/paid-fees";
