/** A lead (docs/api.md 6.3) and the links that answer it. */
import type { Schemas } from '@realty-api/client';

export type LeadRecord = Schemas['Lead'];

/** `mailto:` for a sender's address, or null when it is not one (nothing the browser could misread as a URL). */
export function mailtoHref(email: string): string | null {
  const address = email.trim();
  if (!/^[^\s@:/?#]+@[^\s@:/?#]+$/.test(address)) return null;
  return `mailto:${encodeURIComponent(address).replace('%40', '@')}`;
}

/** `tel:` for a phone number: digits and a leading +, the rest (spaces, dots, brackets) dropped; null when none. */
export function telHref(phone: string): string | null {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[^0-9]/g, '');
  if (digits.length < 3) return null;
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

/** An http(s) link from the API's record, or null (a listing URL is built from PUBLIC_URL, never javascript:). */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
