import { formatAmount } from '../../lib/money.js';

/**
 * Display text of a price (docs/api.md 4.1 `formatted_price`): the amount in its currency, whole units unless
 * the price has cents, between the listing's prefix and postfix, e.g. "From $1,500/month". "" without a price.
 */
export function formatPrice(price: number | null, currency: string, prefix: string, postfix: string): string {
  if (price === null) return '';
  // Decided on the amount as shown: 999.999 is "$1,000", not "$1,000.00".
  const cents = Math.round(price * 100) % 100 !== 0;
  const amount = formatAmount(price, currency, cents ? 2 : 0);
  return `${prefix ? `${prefix} ` : ''}${amount}${postfix}`;
}
