import { randomUUID } from "node:crypto";
import { PLAN_INTERVALS, type PlanInterval } from "@billing/codes";
import type { ErrorDetails } from "@billing/errors";
import {
  chooseSections,
  chosenSectionIdsOf,
  sectionsOf,
  type SectionChoice,
  type SectionChoiceInput,
} from "@billing/contracts";
import type { OwnSections } from "./wallet";
import { isCreditAmount } from "./wallet-rules";

/** A recurring top-up repeats on a plan's intervals. */
export type RuleInterval = PlanInterval;
const INTERVALS: readonly RuleInterval[] = PLAN_INTERVALS;
const MONTHS: Record<Exclude<RuleInterval, "weekly">, number> = { monthly: 1, quarterly: 3, semiannual: 6, yearly: 12 };

/**
 * A rule that tops a wallet up on its own (Lago's recurring transaction rule): on its interval's
 * anniversaries, or when the wallet's ongoing balance falls to its threshold.
 */
export interface RecurringRule extends OwnSections {
  id: string;
  trigger: "interval" | "threshold";
  /** the interval of an interval rule; null for a threshold rule */
  interval: RuleInterval | null;
  /** the threshold of a threshold rule (credits); null for an interval rule */
  threshold_credits: string | null;
  method: "fixed" | "target";
  status: "active" | "terminated";
  paid_credits: string;
  granted_credits: string;
  target_ongoing_balance: string | null;
  started_at: Date | null;
  expiration_at: Date | null;
  invoice_requires_successful_payment: boolean;
  transaction_metadata: Array<{ key: string; value: string | null }>;
  transaction_name: string | null;
  grants_target_top_up: boolean;
  ignore_paid_top_up_limits: boolean;
  created_at: Date;
  /** when an interval rule fires next; null once it has ended, and for a threshold rule */
  next_due_at: Date | null;
}

/** What a client sends for a rule (absent fields keep a known rule's values, or take the defaults). */
export interface RecurringRuleInput {
  svc_id?: string;
  trigger?: string;
  interval?: string;
  method?: string;
  paid_credits?: string;
  granted_credits?: string;
  target_ongoing_balance?: string;
  threshold_credits?: string;
  started_at?: Date;
  expiration_at?: Date;
  invoice_requires_successful_payment?: boolean;
  transaction_metadata?: Array<{ key: string; value: string | null }>;
  transaction_name?: string;
  grants_target_top_up?: boolean;
  ignore_paid_top_up_limits?: boolean;
  invoice_custom_section?: SectionChoiceInput;
}

/** The rules after their inputs' sections choices (in the inputs' order, the order rulesAfter keeps). */
export function withRuleSections(
  rules: readonly RecurringRule[],
  choices: ReadonlyArray<SectionChoice | undefined>,
  now: Date,
): RecurringRule[] {
  return rules.map((rule, i) => {
    const choice = choices[i];
    return choice ? { ...rule, ...chooseSections(sectionsOf(rule), choice, rule.id, now) } : rule;
  });
}

/**
 * The sections choice a rule passes to the transactions it makes (Lago's
 * invoice_custom_section_params): its skip flag and chosen sections; none when it has neither.
 */
export function ruleSections(rule: RecurringRule): SectionChoice | undefined {
  const ids = chosenSectionIdsOf(rule);
  return ids.length === 0 && !rule.skip_invoice_custom_sections
    ? undefined
    : { skip: rule.skip_invoice_custom_sections === true, sectionIds: ids };
}

/** `anchor` moved by `n` intervals (months keep the anchor's day, clamped to the month's end; UTC). */
export function stepOf(anchor: Date, interval: RuleInterval, n: number): Date {
  if (interval === "weekly") return new Date(anchor.getTime() + n * 7 * 86_400_000);
  const months = MONTHS[interval] * n;
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/**
 * The first firing strictly after `after`: the rule's start (or the wallet's creation) itself when
 * that is later, else its next anniversary (never the creation instant itself); null once past the
 * rule's expiration.
 */
export function nextDueAfter(
  rule: Pick<RecurringRule, "interval" | "started_at" | "expiration_at">,
  walletCreatedAt: Date,
  after: Date,
): Date | null {
  if (!rule.interval) return null;
  const anchor = rule.started_at ?? walletCreatedAt;
  let due = anchor;
  for (let n = 1; due.getTime() <= after.getTime(); n++) due = stepOf(anchor, rule.interval, n);
  return rule.expiration_at && due.getTime() > rule.expiration_at.getTime() ? null : due;
}

/**
 * The rules a wallet has after a client's list (one at most, as Lago allows): a known svc_id
 * updates that rule, an unknown one or none adds a rule, rules not listed go. Every field's
 * problem is reported, keyed `recurring_transaction_rules`.
 */
export function rulesAfter(
  current: readonly RecurringRule[],
  inputs: readonly RecurringRuleInput[],
  walletCreatedAt: Date,
  now: Date,
): { rules: RecurringRule[]; errors: ErrorDetails } {
  const problems: string[] = [];
  if (inputs.length > 1) problems.push("only_one_rule_allowed");
  const rules = inputs.slice(0, 1).flatMap((input): RecurringRule[] => {
    const known = input.svc_id ? current.find((r) => r.id === input.svc_id) : undefined;
    const trigger = input.trigger ?? known?.trigger ?? "interval";
    if (trigger !== "interval" && trigger !== "threshold") return (problems.push("invalid_trigger"), []);
    const interval = trigger === "interval" ? ((input.interval ?? known?.interval) as RuleInterval | undefined) : null;
    if (trigger === "interval" && (!interval || !INTERVALS.includes(interval)))
      return (problems.push("invalid_interval"), []);
    const threshold = trigger === "threshold" ? (input.threshold_credits ?? known?.threshold_credits ?? null) : null;
    if (trigger === "threshold" && !isCreditAmount(threshold)) return (problems.push("invalid_threshold_credits"), []);
    const method = input.method ?? known?.method ?? "fixed";
    if (method !== "fixed" && method !== "target") return (problems.push("invalid_method"), []);
    const paid = input.paid_credits ?? known?.paid_credits ?? "0";
    const granted = input.granted_credits ?? known?.granted_credits ?? "0";
    const target = input.target_ongoing_balance ?? known?.target_ongoing_balance ?? null;
    if (!isCreditAmount(paid)) problems.push("invalid_paid_credits");
    if (!isCreditAmount(granted)) problems.push("invalid_granted_credits");
    if (method === "fixed" && Number(paid) === 0 && Number(granted) === 0) problems.push("invalid_recurring_rule");
    if (method === "target" && !isCreditAmount(target)) problems.push("invalid_target_ongoing_balance");
    const started = input.started_at ?? known?.started_at ?? null;
    const expires = input.expiration_at ?? known?.expiration_at ?? null;
    if (expires && expires.getTime() <= now.getTime()) problems.push("invalid_expiration_at");
    const rule: RecurringRule = {
      id: known?.id ?? randomUUID(),
      trigger,
      interval: interval ?? null,
      threshold_credits: threshold ? threshold.trim() : null,
      method,
      status: "active",
      paid_credits: paid.trim(),
      granted_credits: granted.trim(),
      target_ongoing_balance: method === "target" ? target : null,
      started_at: started,
      expiration_at: expires,
      invoice_requires_successful_payment:
        input.invoice_requires_successful_payment ?? known?.invoice_requires_successful_payment ?? false,
      transaction_metadata: input.transaction_metadata ?? known?.transaction_metadata ?? [],
      transaction_name: input.transaction_name ?? known?.transaction_name ?? null,
      grants_target_top_up: input.grants_target_top_up ?? known?.grants_target_top_up ?? false,
      ignore_paid_top_up_limits: input.ignore_paid_top_up_limits ?? known?.ignore_paid_top_up_limits ?? false,
      created_at: known?.created_at ?? now,
      next_due_at: null,
      ...(known && {
        skip_invoice_custom_sections: known.skip_invoice_custom_sections,
        invoice_custom_sections: known.invoice_custom_sections,
      }),
    };
    rule.next_due_at = nextDueAfter(rule, walletCreatedAt, now);
    return [rule];
  });
  return { rules, errors: problems.length ? { recurring_transaction_rules: [...new Set(problems)] } : {} };
}
