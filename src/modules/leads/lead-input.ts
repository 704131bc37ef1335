import { AppError } from '../../lib/errors.js';
import { plainText } from '../../lib/text.js';
import type { ContactInput, LeadUserType } from './leads.schemas.js';

/** A contact form as it is stored and mailed: plain text, no control characters where they could do harm. */
export interface CleanContact {
  name: string;
  email: string;
  phone: string;
  message: string;
  userType: LeadUserType;
}

/** C0 and C1 controls (CR, LF and TAB among them) and the Unicode line and paragraph separators. */
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/gu;
/** The same, minus the line feed and the tab that a message may keep. */
const MESSAGE_CONTROLS = /[^\P{Cc}\n\t]|[\u2028\u2029]/gu;

/**
 * One line of text: control characters become spaces and runs of white space one space, so that nothing
 * the sender typed can break a line of a mail header or of the mail's "Name:" line.
 */
export function singleLine(value: string): string {
  return value.replace(LINE_BREAKING, ' ').replace(/\s+/g, ' ').trim();
}

/** The form's fields cleaned (docs/api.md 0.4, 12: plain text); a name or message left empty by it → 400. */
export function cleanContact(input: ContactInput): CleanContact {
  const name = singleLine(plainText(input.name));
  const message = plainText(input.message.replace(/\r\n?/g, '\n').replace(MESSAGE_CONTROLS, ''));
  if (name === '') throw AppError.invalidField('name', 'lead_rule_blank');
  if (message === '') throw AppError.invalidField('message', 'lead_rule_blank');
  return { name, email: input.email, phone: input.phone ?? '', message, userType: input.user_type ?? 'other' };
}
