import { type Language, translate } from '../../i18n/index.js';
import type { EmailPayload } from '../../db/outbox.js';
import { type CleanContact, singleLine } from './lead-input.js';

/** What a lead was sent about, as its mail names it. */
export type LeadSubject = { kind: 'property'; title: string; url: string } | { kind: 'profile'; name: string };

const USER_TYPE_LABEL = {
  buyer: 'lead_user_type_buyer',
  tenant: 'lead_user_type_tenant',
  agent: 'lead_user_type_agent',
  other: 'lead_user_type_other',
} as const;

/**
 * The mail of a lead to one recipient, in the recipient's language. The sender's name and address appear in
 * the text and in Reply-To only (the address passed the strict e-mail format, which admits no line break);
 * the subject names the listing, agent or agency on one line, so no header can be split.
 */
export function leadMail(to: string, language: Language, about: LeadSubject, contact: CleanContact): EmailPayload {
  const subject =
    about.kind === 'property'
      ? translate(language, 'lead_mail_subject_property', { title: singleLine(about.title) })
      : translate(language, 'lead_mail_subject_profile', { name: singleLine(about.name) });
  const intro =
    about.kind === 'property'
      ? translate(language, 'lead_mail_intro_property', { title: about.title, url: about.url })
      : translate(language, 'lead_mail_intro_profile', { name: about.name });
  const details = translate(language, 'lead_mail_details', {
    name: contact.name,
    email: contact.email,
    phone: contact.phone || translate(language, 'lead_mail_no_phone'),
    user_type: translate(language, USER_TYPE_LABEL[contact.userType]),
    message: contact.message,
  });
  return { to, subject: singleLine(subject), text: `${intro}\n\n${details}`, replyTo: contact.email };
}
