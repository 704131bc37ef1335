import { dialable } from '../../components/phone.js';

/**
 * The links a profile's stored contact details become. Records are written by their users (and by imports), so
 * a value becomes a link only when it is what its kind of link needs: an http(s) URL for a website or a social
 * profile (a `javascript:` or `data:` URL stays text, or is left out), digits for a phone.
 */

/** The URL if it is an absolute http(s) URL with a host, else null. */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url.href : null;
  } catch {
    return null;
  }
}

/** `tel:` with the number's digits (and a leading +), else null when it has no digit. */
export function telHref(phone: string): string | null {
  const digits = dialable(phone).replace(/(?!^)\+/g, '');
  return /[0-9]/.test(digits) ? `tel:${digits}` : null;
}

/** The WhatsApp chat link of a number (wa.me takes the international number's digits only), else null. */
export function whatsappHref(phone: string): string | null {
  const digits = phone.replace(/[^0-9]/g, '');
  return digits.length >= 6 ? `https://wa.me/${digits}` : null;
}

/** `mailto:` of an address that looks like one (no spaces, quotes or angle brackets, one @), else null. */
export function mailtoHref(email: string): string | null {
  return /^[^\s@<>"'()\\,;:]+@[^\s@<>"'()\\,;:]+\.[^\s@<>"'()\\,;:]+$/.test(email) ? `mailto:${email}` : null;
}

/** A website as people read it: without the scheme, `www.` and a lone trailing slash. */
export function displayUrl(url: string): string {
  return url.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '');
}
