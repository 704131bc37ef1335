/** A phone number as shown: never broken across lines (its spaces are no-break spaces). */
export const unbrokenPhone = (phone: string) => phone.replace(/ /g, '\u00a0');

/** The digits (and a leading +) that a `tel:` or WhatsApp link dials. */
export const dialable = (phone: string) => phone.replace(/[^+\d]/g, '');
