/**
 * The mortgage calculator's arithmetic (docs/site.md), the same as browser/calculator.js does it live: an
 * annuity, paid monthly. Presentation, not a rule of the platform: the page shows an estimate.
 */
export interface MortgageInput {
  readonly price: number;
  /** Percent of the price paid up front. */
  readonly downPercent: number;
  /** Percent a year. */
  readonly ratePercent: number;
  readonly years: number;
}

export interface MortgageEstimate {
  readonly loan: number;
  readonly monthly: number;
  readonly totalInterest: number;
}

/** What the page assumes before the visitor says otherwise. */
export const MORTGAGE_DEFAULTS = { downPercent: 20, ratePercent: 6, years: 25 } as const;

/** The loan's bounds, as the calculator's fields state them. */
export const MORTGAGE_LIMITS = {
  price: { min: 0, max: 1e13 },
  downPercent: { min: 0, max: 100 },
  ratePercent: { min: 0, max: 30 },
  years: { min: 1, max: 50 },
} as const;

export function mortgageEstimate({ price, downPercent, ratePercent, years }: MortgageInput): MortgageEstimate {
  const loan = Math.max(0, price * (1 - downPercent / 100));
  const months = Math.round(years * 12);
  const rate = ratePercent / 100 / 12;
  const monthly = months <= 0 ? 0 : rate === 0 ? loan / months : (loan * rate) / (1 - (1 + rate) ** -months);
  return { loan, monthly, totalInterest: Math.max(0, monthly * months - loan) };
}
