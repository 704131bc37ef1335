import type { AgencyRecord, AgentRecord } from '../../../modules/directory/index.js';
import type { MediaRecord } from '../../../modules/media/index.js';
import type { PageContext, SocialImage } from '../../page.js';
import { agencyPath } from '../../paths.js';
import { fill } from '../../texts.js';
import { httpUrl } from './links.js';
import { socialLinksOf } from './profile-parts.js';

/**
 * What search engines read of an agent or agency page: schema.org RealEstateAgent with the same name, phone,
 * e-mail, picture and rating the page shows (docs/site.md), and the picture for link previews.
 */

/**
 * html-validate's long-title: a title of at most 70 characters as written in the page, where `&`, `<` and `"` take
 * the length of their entities, with " | " and the site's name after it (layout/Document.tsx).
 */
const MAX_TITLE = 70;
const writtenLength = (text: string) => [...text].reduce((sum, c) => sum + (c === '&' ? 5 : c === '<' ? 4 : c === '"' ? 6 : 1), 0);

/**
 * `template` filled with the record's name, the name shortened (with "…") so that the whole title, the site's name
 * included, stays within 70 characters.
 */
export function titleWithName(template: string, name: string, siteName: string): string {
  const room = MAX_TITLE - writtenLength(` | ${siteName}`);
  const whole = fill(template, { name });
  if (writtenLength(whole) <= room) return whole;
  const letters = [...name];
  for (let kept = letters.length - 1; kept > 0; kept--) {
    const title = fill(template, { name: `${letters.slice(0, kept).join('').trimEnd()}…` });
    if (writtenLength(title) <= room) return title;
  }
  return fill(template, { name: '…' });
}

/** The rating the page shows: its reviews block's average and count. */
export interface ShownRating {
  readonly rating: number | null;
  readonly count: number;
}

/** The largest size of a picture the API made (the original when it made none), with its dimensions. */
export function socialImageOf(media: MediaRecord | null, alt: string): SocialImage | null {
  if (!media) return null;
  const size = media.sizes.large ?? media.sizes.medium;
  if (size) return { url: size.url, width: size.width, height: size.height, alt };
  return media.width && media.height ? { url: media.url, width: media.width, height: media.height, alt } : null;
}

/** The first phone a profile has, as the page shows it first. */
function mainPhoneOf(record: { phone: string; mobile: string }): string {
  return record.phone || record.mobile;
}

function common(record: AgentRecord | AgencyRecord, url: string, image: SocialImage | null, shown: ShownRating): Record<string, unknown> {
  const phone = mainPhoneOf(record);
  const sameAs = [httpUrl(record.website), ...socialLinksOf(record.social).map((link) => link.url)].filter((link) => link !== null);
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateAgent',
    '@id': `${url}#profile`,
    name: record.name,
    url,
    ...(phone ? { telephone: phone } : {}),
    ...(record.email ? { email: record.email } : {}),
    ...(image ? { image: image.url } : {}),
    ...(sameAs.length > 0 ? { sameAs } : {}),
    ...(shown.rating !== null && shown.count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: shown.rating,
            reviewCount: shown.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}

/** RealEstateAgent of an agent: its agency as parentOrganization, its languages and areas. */
export function agentJsonLd(ctx: PageContext, agent: AgentRecord, url: string, image: SocialImage | null, shown: ShownRating): object {
  return {
    ...common(agent, url, image, shown),
    ...(agent.bio ? { description: agent.bio.slice(0, 500) } : {}),
    ...(agent.languages.length > 0 ? { knowsLanguage: agent.languages } : {}),
    ...(agent.service_areas ? { areaServed: agent.service_areas } : {}),
    ...(agent.agency
      ? {
          parentOrganization: {
            '@type': 'RealEstateAgent',
            name: agent.agency.name,
            url: `${ctx.publicUrl}${ctx.path(agencyPath(agent.agency.slug))}`,
          },
        }
      : {}),
  };
}

/** RealEstateAgent of an agency: its address and, when set, its coordinates and logo. */
export function agencyJsonLd(agency: AgencyRecord, url: string, image: SocialImage | null, shown: ShownRating): object {
  return {
    ...common(agency, url, image, shown),
    ...(image ? { logo: image.url } : {}),
    ...(agency.address ? { address: { '@type': 'PostalAddress', streetAddress: agency.address } } : {}),
    ...(agency.latitude !== null && agency.longitude !== null
      ? { geo: { '@type': 'GeoCoordinates', latitude: agency.latitude, longitude: agency.longitude } }
      : {}),
  };
}
