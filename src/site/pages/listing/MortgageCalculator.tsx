import { Field, type FormState } from '../../components/Form.js';
import type { PageContext } from '../../page.js';
import { fill } from '../../texts.js';
import { Block } from './ListingFacts.js';
import { listingText } from './listing.text.js';
import { MORTGAGE_LIMITS, mortgageEstimate, type MortgageInput } from './mortgage.js';

export interface CalculatorState {
  /** The figures worked out: the listing's price with the defaults, or what the visitor asked (GET form). */
  readonly input: MortgageInput;
  /** The form's fields as asked, with their errors (a value out of bounds). */
  readonly form: FormState;
}

/**
 * The mortgage calculator (docs/site.md): without JavaScript it shows the worked example for the listing's price,
 * and its GET form asks the page again with other figures; browser/calculator.js works them out as they are typed.
 */
export function MortgageCalculator({
  ctx,
  currency,
  state,
  action,
}: {
  ctx: PageContext;
  currency: string;
  state: CalculatorState;
  action: string;
}) {
  const t = listingText[ctx.lang];
  const { input, form } = state;
  const estimate = mortgageEstimate(input);
  const money = (amount: number) => ctx.format.money(Math.round(amount), currency);
  const field = (name: string, label: string, limits: { min: number; max: number }, value: number, step: number | 'any') => (
    <Field
      form={form}
      idPrefix="calc"
      name={name}
      label={label}
      type="number"
      min={limits.min}
      max={limits.max}
      step={step}
      initial={String(value)}
    />
  );
  return (
    <Block id="calculator" heading={t.calculator} className="no-print">
      <form
        class="calculator"
        method="get"
        action={`${action}#calculator`}
        data-calculator=""
        data-locale={ctx.format.locale}
        data-currency={currency}
      >
        <div class="calculator__fields">
          {field('calc_price', fill(t.calc_price, { currency }), MORTGAGE_LIMITS.price, input.price, 'any')}
          {field('calc_down', t.calc_down, MORTGAGE_LIMITS.downPercent, input.downPercent, 'any')}
          {field('calc_rate', t.calc_rate, MORTGAGE_LIMITS.ratePercent, input.ratePercent, 'any')}
          {field('calc_years', t.calc_years, MORTGAGE_LIMITS.years, input.years, 1)}
        </div>
        <button class="button button--quiet" type="submit">
          {t.calc_submit}
        </button>
        <p class="calculator__example" data-calculator-example={t.calc_example}>
          {fill(t.calc_example, {
            down: ctx.format.number(input.downPercent),
            rate: ctx.format.number(input.ratePercent),
            years: ctx.format.number(input.years),
          })}
        </p>
        <dl class="calculator__results" aria-live="polite">
          <div>
            <dt>{t.calc_monthly}</dt>
            <dd class="calculator__monthly" data-result="monthly">
              {money(estimate.monthly)}
            </dd>
          </div>
          <div>
            <dt>{t.calc_loan}</dt>
            <dd data-result="loan">{money(estimate.loan)}</dd>
          </div>
          <div>
            <dt>{t.calc_interest}</dt>
            <dd data-result="interest">{money(estimate.totalInterest)}</dd>
          </div>
        </dl>
        <p class="muted">{t.calc_note}</p>
      </form>
    </Block>
  );
}
