import type { SocialIdentity } from '../../adapters/social/index.js';
import { plainText } from '../../lib/text.js';

/** docs/api.md 0.6: names are at most 200 characters. */
const NAME_LIMIT = 200;
const USERNAME_MIN = 3;
/** Leaves room for the numeric suffix that makes a taken username free. */
const USERNAME_BASE_MAX = 50;

/**
 * First and last name for a new account. A provider that sends only a full name gets it as the first name:
 * splitting a name into given and family parts is not safe across cultures.
 */
export function profileNames(identity: SocialIdentity): { firstName: string; lastName: string } {
  const firstName = cleanName(identity.firstName);
  const lastName = cleanName(identity.lastName);
  if (firstName === '' && lastName === '') return { firstName: cleanName(identity.fullName), lastName: '' };
  return { firstName, lastName };
}

/**
 * The username a new account asks for: the e-mail's local part, else the name, reduced to the characters
 * usernames allow (letters digits `_ . -`) with accents folded (`José` → `Jose`).
 */
export function wantedUsername(identity: SocialIdentity, email: string): string {
  const candidates = [email.split('@')[0] ?? '', identity.fullName, `${identity.firstName} ${identity.lastName}`];
  for (const candidate of candidates) {
    const cleaned = asciiUsername(candidate);
    if (cleaned.length >= USERNAME_MIN) return cleaned;
  }
  return `${identity.provider}_user`;
}

function cleanName(value: string): string {
  return plainText(value).slice(0, NAME_LIMIT).trim();
}

function asciiUsername(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .trim()
    .replace(/\s+/g, '.')
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, USERNAME_BASE_MAX);
}
