// @ts-check
/**
 * The mortgage calculator, live (docs/site.md): the page's form already shows a worked example and asks the page
 * again for other figures; here the figures are worked out as they are typed. The arithmetic is the page's own
 * (src/site/pages/listing/mortgage.ts; a test holds the two together).
 */

/**
 * @param {{ price: number, downPercent: number, ratePercent: number, years: number }} input
 * @returns {{ loan: number, monthly: number, totalInterest: number }}
 */
export function mortgageEstimate({ price, downPercent, ratePercent, years }) {
  const loan = Math.max(0, price * (1 - downPercent / 100));
  const months = Math.round(years * 12);
  const rate = ratePercent / 100 / 12;
  const monthly = months <= 0 ? 0 : rate === 0 ? loan / months : (loan * rate) / (1 - (1 + rate) ** -months);
  return { loan, monthly, totalInterest: Math.max(0, monthly * months - loan) };
}

if (typeof document !== 'undefined') {
  const form = document.querySelector('form[data-calculator]');
  if (form instanceof HTMLFormElement) setUp(form);
}

/** @param {HTMLFormElement} form */
function setUp(form) {
  const money = new Intl.NumberFormat(form.dataset.locale, {
    style: 'currency',
    currency: form.dataset.currency,
    maximumFractionDigits: 0,
  });
  const numbers = new Intl.NumberFormat(form.dataset.locale, { maximumFractionDigits: 2 });
  /** @param {string} name */
  const input = (name) => /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name));
  /** @param {string} name */
  const result = (name) => form.querySelector(`[data-result="${name}"]`);
  const example = /** @type {HTMLElement | null} */ (form.querySelector('[data-calculator-example]'));
  const update = () => {
    const fields = ['calc_price', 'calc_down', 'calc_rate', 'calc_years'].map(input);
    if (fields.some((field) => !field || !field.checkValidity() || field.value === '')) return;
    const [price, downPercent, ratePercent, years] = fields.map((field) => Number(/** @type {HTMLInputElement} */ (field).value));
    const estimate = mortgageEstimate({
      price: price ?? 0,
      downPercent: downPercent ?? 0,
      ratePercent: ratePercent ?? 0,
      years: years ?? 1,
    });
    const set = (/** @type {string} */ name, /** @type {number} */ value) => {
      const element = result(name);
      if (element) element.textContent = money.format(Math.round(value));
    };
    set('monthly', estimate.monthly);
    set('loan', estimate.loan);
    set('interest', estimate.totalInterest);
    if (example?.dataset.calculatorExample) {
      const values = { down: downPercent ?? 0, rate: ratePercent ?? 0, years: years ?? 0 };
      example.textContent = example.dataset.calculatorExample.replace(/\{(down|rate|years)\}/g, (_, name) =>
        numbers.format(values[/** @type {'down' | 'rate' | 'years'} */ (name)]),
      );
    }
  };
  form.addEventListener('input', update);
  form.addEventListener('submit', (event) => {
    // Worked out already: no need to load the page again.
    event.preventDefault();
    update();
  });
}
