import type { PropertyRecord } from '../../../modules/properties/index.js';
import type { PageContext } from '../../page.js';
import { agencyPath, agentPath } from '../../paths.js';
import type { SiteServices } from '../../site-services.js';
import { fill } from '../../texts.js';
import { httpUrl } from './embeds.js';
import { dialable, unbrokenPhone } from '../../components/phone.js';
import { listingText } from './listing.text.js';

type AgentRecord = Awaited<ReturnType<SiteServices['agents']['get']>>;
type AgencyRecord = Awaited<ReturnType<SiteServices['agencies']['get']>>;

/** An agent the listing names: its record when the visitor may see its page (a hidden agent has none). */
export interface ListedAgent {
  readonly summary: PropertyRecord['agents'][number];
  readonly record: AgentRecord | null;
}

/** Who the listing shows, per its `agent_display` (docs/api.md 12). */
export type ListingContact =
  | { readonly kind: 'agents'; readonly agents: readonly ListedAgent[] }
  | { readonly kind: 'agency'; readonly agency: AgencyRecord }
  | { readonly kind: 'author'; readonly name: string }
  | null;

function ContactLines({
  ctx,
  phone,
  mobile,
  whatsapp,
  email,
}: {
  ctx: PageContext;
  phone: string;
  mobile?: string;
  whatsapp?: string;
  email: string;
}) {
  const t = listingText[ctx.lang];
  const lines = [
    phone && dialable(phone) ? (
      <li key="phone">
        <a href={`tel:${dialable(phone)}`}>
          <span class="muted">{t.call}</span> <bdi>{unbrokenPhone(phone)}</bdi>
        </a>
      </li>
    ) : null,
    mobile && dialable(mobile) ? (
      <li key="mobile">
        <a href={`tel:${dialable(mobile)}`}>
          <span class="muted">{t.mobile}</span> <bdi>{unbrokenPhone(mobile)}</bdi>
        </a>
      </li>
    ) : null,
    whatsapp && dialable(whatsapp).replace('+', '') ? (
      <li key="whatsapp">
        <a href={`https://wa.me/${dialable(whatsapp).replace('+', '')}`} rel="nofollow noopener">
          {t.whatsapp}
        </a>
      </li>
    ) : null,
    email ? (
      <li key="email">
        <a href={`mailto:${email}`}>
          <span class="muted">{t.email}</span> <bdi>{email}</bdi>
        </a>
      </li>
    ) : null,
  ].filter(Boolean);
  return lines.length > 0 ? <ul class="contact-lines">{lines}</ul> : null;
}

function Portrait({ url }: { url: string | null }) {
  const src = url ? httpUrl(url) : null;
  return src ? (
    <img class="contact-card__picture" src={src.href} alt="" width={96} height={96} loading="lazy" decoding="async" />
  ) : (
    <span class="contact-card__picture contact-card__picture--none" aria-hidden="true" />
  );
}

/** The agents, the agency or the author the listing shows; nothing for `none`. */
export function AgentCard({ ctx, contact }: { ctx: PageContext; contact: ListingContact }) {
  if (contact === null || (contact.kind === 'agents' && contact.agents.length === 0)) return null;
  const t = listingText[ctx.lang];
  return (
    <section class="listing-block contact-card" aria-labelledby="listed-by-heading">
      <h2 id="listed-by-heading">{t.listed_by}</h2>
      {contact.kind === 'agents'
        ? contact.agents.map(({ summary, record }) => (
            <div key={summary.id} class="contact-card__person">
              <Portrait url={record?.picture_url ?? null} />
              <div>
                <p class="contact-card__name">
                  {record ? (
                    <a href={ctx.path(agentPath(record.slug))} aria-label={fill(t.agent_profile, { name: record.name })}>
                      {record.name}
                    </a>
                  ) : (
                    summary.name
                  )}
                </p>
                {record && (record.position || record.company) ? (
                  <p class="muted">{[record.position, record.company].filter(Boolean).join(', ')}</p>
                ) : null}
                <ContactLines
                  ctx={ctx}
                  phone={summary.phone}
                  mobile={record?.mobile ?? ''}
                  whatsapp={record?.whatsapp ?? ''}
                  email={summary.email}
                />
              </div>
            </div>
          ))
        : null}
      {contact.kind === 'agency' ? (
        <div class="contact-card__person">
          <Portrait url={contact.agency.logo_url} />
          <div>
            <p class="contact-card__name">
              <a href={ctx.path(agencyPath(contact.agency.slug))} aria-label={fill(t.agency_profile, { name: contact.agency.name })}>
                {contact.agency.name}
              </a>
            </p>
            <ContactLines
              ctx={ctx}
              phone={contact.agency.phone}
              mobile={contact.agency.mobile}
              whatsapp={contact.agency.whatsapp}
              email={contact.agency.email}
            />
          </div>
        </div>
      ) : null}
      {contact.kind === 'author' ? <p class="contact-card__name">{contact.name}</p> : null}
    </section>
  );
}
