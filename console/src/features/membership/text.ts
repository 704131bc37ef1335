import { useTranslation } from 'react-i18next';
import { type BillingPeriod, billingMessage } from './money';

/** A billing period in the reader's language ("Monthly", "Every 3 months (unit: month)"). */
export function useBillingText(): (period: BillingPeriod, frequency: number) => string {
  const { t, i18n } = useTranslation();
  return (period, frequency) => {
    const message = billingMessage(period, frequency);
    if (message.unit === undefined) return t(`membership.${message.key}`);
    return t(`membership.${message.key}`, { n: (message.n ?? 1).toLocaleString(i18n.language), unit: t(`membership.${message.unit}`) });
  };
}
