import { formatMoney, formatQuantity, formatUnitPrice, supportedLocale } from "@billing/pricing";

/** Amounts, quantities and dates of one document, in its locale and currency (amounts by @billing/pricing). */
export interface DocumentFormat {
  money(cents: number | string): string;
  unitPrice(amount: string): string;
  quantity(value: string | number): string;
  /** a local date (YYYY-MM-DD) in the locale's words ("26 Nov 2026", "26 nov. 2026") */
  date(day: string): string;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function documentFormat(locale: string, currency: string): DocumentFormat {
  const loc = supportedLocale(locale);
  let dates = dateFormats.get(loc);
  if (!dates) {
    dates = new Intl.DateTimeFormat(loc, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
    dateFormats.set(loc, dates);
  }
  const dateFormat = dates;
  return {
    money: (cents) => formatMoney(cents, currency, loc),
    unitPrice: (amount) => formatUnitPrice(amount, currency, loc),
    quantity: (value) => formatQuantity(value, loc),
    date: (day) => {
      const d = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
      return d && !Number.isNaN(d.getTime()) ? dateFormat.format(d) : day;
    },
  };
}
