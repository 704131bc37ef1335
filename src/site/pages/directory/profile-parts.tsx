import type { ComponentChildren } from 'preact';
import type { MediaRecord } from '../../../modules/media/index.js';
import { LEAD_USER_TYPES } from '../../../modules/leads/index.js';
import type { SocialRecord } from '../../../modules/directory/index.js';
import { CsrfField, Field, FormNotice, Honeypot, TextArea, type FormState } from '../../components/Form.js';
import { unbrokenPhone } from '../../components/phone.js';
import { Picture, pictureSource } from '../../components/Picture.js';
import type { PageContext } from '../../page.js';
import { fill } from '../../texts.js';
import { directoryText, type DirectoryTextKey } from './directory.text.js';
import { displayUrl, httpUrl, mailtoHref, telHref, whatsappHref } from './links.js';

/** The parts the agent and agency pages share: the picture, contact lines and links, the contact form. */

/** "1 property" / "12 properties" (and the like) in the page's language. */
export function countOf(ctx: PageContext, count: number, one: DirectoryTextKey, other: DirectoryTextKey): string {
  const t = directoryText[ctx.lang];
  return fill(count === 1 ? t[one] : t[other], { count: ctx.format.number(count) });
}

/**
 * A text with one `{name}` placeholder filled by an element (a link inside a sentence, wherever each language puts
 * it): "Agent at <a>Sol Homes</a>".
 */
export function Filled({ template, name, children }: { template: string; name: string; children: ComponentChildren }) {
  const at = template.indexOf(`{${name}}`);
  if (at < 0) return <>{template}</>;
  return (
    <>
      {template.slice(0, at)}
      {children}
      {template.slice(at + name.length + 2)}
    </>
  );
}

/** The two letters shown where a profile has no picture. */
function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => [...word][0]!.toLocaleUpperCase())
    .join('');
}

/** A profile's picture or logo with its sizes; its initials in a circle without one. */
export function ProfileImage({
  media,
  name,
  alt,
  sizes,
  priority = false,
  className,
}: {
  media: MediaRecord | null | undefined;
  name: string;
  alt: string;
  sizes: string;
  priority?: boolean;
  className: string;
}) {
  // A medium without a picture's sizes (a document) gets the initials too.
  if (media && pictureSource(media)) return <Picture media={media} sizes={sizes} alt={alt} priority={priority} className={className} />;
  return (
    <span class={`${className} initials`} aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}

export interface ContactLines {
  readonly phone: string;
  readonly mobile: string;
  readonly whatsapp: string;
  readonly fax: string;
  readonly email: string;
  readonly website: string;
  readonly social: SocialRecord;
}

/** Call, e-mail and WhatsApp buttons, for what the profile has. */
export function ContactActions({ ctx, lines }: { ctx: PageContext; lines: ContactLines }) {
  const t = directoryText[ctx.lang];
  const tel = telHref(lines.mobile || lines.phone);
  const mail = mailtoHref(lines.email);
  const chat = whatsappHref(lines.whatsapp);
  if (!tel && !mail && !chat) return null;
  return (
    <ul class="profile__actions">
      {tel ? (
        <li>
          <a class="button" href={tel}>
            {t.call}
          </a>
        </li>
      ) : null}
      {mail ? (
        <li>
          <a class="button button--quiet" href={mail}>
            {t.write}
          </a>
        </li>
      ) : null}
      {chat ? (
        <li>
          <a class="button button--quiet" href={chat} rel="nofollow noopener">
            {t.whatsapp_chat}
          </a>
        </li>
      ) : null}
    </ul>
  );
}

const NETWORK_NAMES: Readonly<Record<keyof SocialRecord, string>> = {
  facebook: 'Facebook',
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
  instagram: 'Instagram',
  youtube: 'YouTube',
  pinterest: 'Pinterest',
  tiktok: 'TikTok',
};

/** The profile's social links that are http(s) URLs (any other stored value is left out). */
export function socialLinksOf(social: SocialRecord): { network: keyof SocialRecord; name: string; url: string }[] {
  return (Object.keys(NETWORK_NAMES) as (keyof SocialRecord)[]).flatMap((network) => {
    const url = httpUrl(social[network]);
    return url ? [{ network, name: NETWORK_NAMES[network], url }] : [];
  });
}

/** A phone number as a link's text: its spaces and hyphens do not break (the number stays on one line). */
function phoneText(value: string): string {
  return unbrokenPhone(value).replace(/-/g, '\u2011');
}

/** One line of a definition list. */
function Line({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div class="profile-facts__line">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * The contact lines: phones as `tel:` links, the address as `mailto:`, the website and WhatsApp as links when they
 * are what such links need (else as text), and the social profiles with http(s) URLs.
 */
export function ContactDetails({ ctx, lines, address }: { ctx: PageContext; lines: ContactLines; address?: string }) {
  const t = directoryText[ctx.lang];
  const phoneLine = (term: string, value: string) => {
    if (!value) return null;
    const tel = telHref(value);
    // Numbers read left to right in every language (an Arabic page would show "+971 4" as "4 971+").
    return (
      <Line term={term}>
        {tel ? (
          <a href={tel} dir="ltr">
            {phoneText(value)}
          </a>
        ) : (
          <span dir="ltr">{value}</span>
        )}
      </Line>
    );
  };
  const website = httpUrl(lines.website);
  const mail = mailtoHref(lines.email);
  const chat = whatsappHref(lines.whatsapp);
  const social = socialLinksOf(lines.social);
  return (
    <section class="profile-box" aria-labelledby="contact-details">
      <h2 id="contact-details">{t.contact_details}</h2>
      <dl class="profile-facts">
        {phoneLine(t.phone, lines.phone)}
        {phoneLine(t.mobile, lines.mobile)}
        {lines.whatsapp ? (
          <Line term={t.whatsapp}>
            {chat ? (
              <a href={chat} rel="nofollow noopener" dir="ltr">
                {phoneText(lines.whatsapp)}
              </a>
            ) : (
              <span dir="ltr">{lines.whatsapp}</span>
            )}
          </Line>
        ) : null}
        {phoneLine(t.fax, lines.fax)}
        {lines.email ? (
          <Line term={t.email}>
            {mail ? (
              <a href={mail} dir="ltr">
                {lines.email}
              </a>
            ) : (
              lines.email
            )}
          </Line>
        ) : null}
        {lines.website ? (
          <Line term={t.website}>
            {website ? (
              <a href={website} rel="nofollow noopener" dir="ltr">
                {displayUrl(website)}
              </a>
            ) : (
              lines.website
            )}
          </Line>
        ) : null}
        {address ? <Line term={t.address}>{address}</Line> : null}
      </dl>
      {social.length > 0 ? (
        <>
          <h3 class="profile-box__sub">{t.social}</h3>
          <ul class="social-links">
            {social.map((link) => (
              <li key={link.network}>
                <a href={link.url} rel="nofollow noopener me">
                  {link.name}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** Facts of a profile as a definition list (languages, areas, licence…), the empty ones left out. */
export function ProfileFacts({ ctx, facts }: { ctx: PageContext; facts: readonly (readonly [DirectoryTextKey, string])[] }) {
  const t = directoryText[ctx.lang];
  const shown = facts.filter(([, value]) => value.trim() !== '');
  if (shown.length === 0) return null;
  return (
    <section class="section" aria-labelledby="profile-details">
      <h2 id="profile-details">{t.details}</h2>
      <dl class="profile-facts">
        {shown.map(([term, value]) => (
          <Line key={term} term={t[term]}>
            {value}
          </Line>
        ))}
      </dl>
    </section>
  );
}

/** The contact form's state after a post: what was typed, the field messages, and whether it was sent. */
export interface ContactFormState extends FormState {
  readonly sent?: boolean;
}

const USER_TYPE_KEYS = {
  buyer: 'user_type_buyer',
  tenant: 'user_type_tenant',
  agent: 'user_type_agent',
  other: 'user_type_other',
} as const satisfies Record<(typeof LEAD_USER_TYPES)[number], DirectoryTextKey>;

/**
 * The contact form (POST …/contact, as POST /agents/{id}/contact): name, e-mail, phone, message and who the
 * sender is, a honeypot, and the CSRF token of a signed-in visitor. Errors show beside the fields, typed values stay.
 */
export function ContactForm({ ctx, name, action, form }: { ctx: PageContext; name: string; action: string; form: ContactFormState }) {
  const t = directoryText[ctx.lang];
  const failed = Object.keys(form.errors).length > 0;
  const userType = form.values.user_type ?? 'buyer';
  const typeError = form.errors.user_type;
  return (
    <section class="profile-box contact" id="contact" aria-labelledby="contact-heading">
      <h2 id="contact-heading">{fill(t.contact_heading, { name })}</h2>
      {form.sent ? <FormNotice>{fill(t.contact_sent, { name })}</FormNotice> : <p class="muted">{fill(t.contact_intro, { name })}</p>}
      {failed ? <FormNotice kind="error">{t.form_failed}</FormNotice> : null}
      <form class="form" method="post" action={ctx.path(action)} noValidate>
        <CsrfField ctx={ctx} />
        <Honeypot idPrefix="contact" />
        <Field
          form={form}
          idPrefix="contact"
          name="name"
          label={t.your_name}
          required
          autocomplete="name"
          maxLength={200}
          initial={ctx.visitor?.displayName}
        />
        <Field
          form={form}
          idPrefix="contact"
          name="email"
          label={t.your_email}
          type="email"
          required
          autocomplete="email"
          maxLength={254}
        />
        <Field form={form} idPrefix="contact" name="phone" label={t.your_phone} type="tel" autocomplete="tel" maxLength={50} />
        <div class="field" data-invalid={typeError ? '' : undefined}>
          <label for="contact-user_type">{t.user_type}</label>
          <select
            id="contact-user_type"
            name="user_type"
            aria-invalid={typeError ? 'true' : undefined}
            aria-describedby={typeError ? 'contact-user_type-error' : undefined}
          >
            {LEAD_USER_TYPES.map((type) => (
              <option key={type} value={type} selected={type === userType}>
                {t[USER_TYPE_KEYS[type]]}
              </option>
            ))}
          </select>
          {typeError ? (
            <p class="field__error" id="contact-user_type-error">
              {typeError}
            </p>
          ) : null}
        </div>
        <TextArea form={form} idPrefix="contact" name="message" label={t.message} required maxLength={5000} initial={t.message_initial} />
        <p>
          <button class="button" type="submit">
            {t.send}
          </button>
        </p>
      </form>
    </section>
  );
}
