import { Decimal, ZERO, parseDecimal } from "../decimal";
import { instantMs } from "../periods/timezone";
import type { UsageEvent } from "./types";

export function eventTime(event: UsageEvent): number {
  return instantMs(event.timestamp);
}

/** The numeric value of `field` on an event, or null when missing or not numeric (the event is ignored). */
export function numericValue(event: UsageEvent, field: string | null | undefined): Decimal | null {
  if (!field) return null;
  return parseDecimal(event.properties?.[field]);
}

/** Events sorted by timestamp (stable, input order breaks ties); no copy when already sorted. */
export function byTimestamp<E extends UsageEvent>(events: readonly E[]): readonly E[] {
  let previous = -Infinity;
  for (const event of events) {
    const t = eventTime(event);
    if (t < previous) return [...events].sort((a, b) => eventTime(a) - eventTime(b));
    previous = t;
  }
  return events;
}

const SCALE = 1e9;
const SAFE = 2 ** 52;
const PLAIN = /^-?\d{1,15}(\.\d{1,9})?$/;

/**
 * Exact running sum of numeric property values. Integers and decimals with at most 9 fraction
 * digits (and 15 significant digits) are added as fixed-point JS integers — exact and fast;
 * anything else goes through decimal.js. Both parts are flushed to a Decimal before overflowing.
 */
export class ExactSum {
  private integers = 0;
  private nanos = 0;
  private decimal: Decimal = ZERO;

  /** Adds a raw property value; returns false (nothing added) when it is not numeric. */
  add(raw: unknown): boolean {
    if (typeof raw === "number") {
      if (Number.isSafeInteger(raw)) return this.addInteger(raw);
      if (!Number.isFinite(raw)) return false;
      return this.addText(String(raw));
    }
    if (typeof raw === "string") return this.addText(raw.trim());
    if (raw instanceof Decimal) {
      this.decimal = this.decimal.plus(raw);
      return true;
    }
    return false;
  }

  private addInteger(value: number): true {
    if (Math.abs(value) > 2 ** 51) {
      this.decimal = this.decimal.plus(value);
      return true;
    }
    this.integers += value;
    if (Math.abs(this.integers) > SAFE) this.flush();
    return true;
  }

  private addText(text: string): boolean {
    if (PLAIN.test(text)) {
      const dot = text.indexOf(".");
      if (dot === -1) return this.addInteger(Number(text));
      const negative = text.charCodeAt(0) === 45;
      const whole = Number(text.slice(negative ? 1 : 0, dot));
      const fraction = Number(text.slice(dot + 1).padEnd(9, "0"));
      if (whole < 4_000_000) {
        const nanos = whole * SCALE + fraction;
        this.nanos += negative ? -nanos : nanos;
        if (Math.abs(this.nanos) > SAFE) this.flush();
        return true;
      }
    }
    const parsed = parseDecimal(text);
    if (parsed === null) return false;
    this.decimal = this.decimal.plus(parsed);
    return true;
  }

  private flush(): void {
    this.decimal = this.decimal.plus(this.integers).plus(new Decimal(this.nanos).div(SCALE));
    this.integers = 0;
    this.nanos = 0;
  }

  total(): Decimal {
    this.flush();
    return this.decimal;
  }
}
