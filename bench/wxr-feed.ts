import fs from 'node:fs';
import { FEATURES, PLACES } from './exchange-feed.js';

/** The site the export is of: its pictures and brochures are on its own host. */
const WXR_SITE = 'https://bench-site.example';

const AUTHORS = 10;
const AGENCIES = 5;
const AGENTS = 20;
const TYPES = ['Apartment', 'Villa', 'Townhouse', 'Studio', 'Penthouse', 'Duplex', 'Office', 'Land'];
const STATUSES = ['For Sale', 'For Rent'];
const LABELS = ['Hot Offer', 'New'];

/** Post ids: agencies, agents, then each property n at PROPERTY_BASE + 4n with its attachments right after it. */
const AGENCY_BASE = 100;
const AGENT_BASE = 200;
const PROPERTY_BASE = 1000;

const slug = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
const cdata = (text: string) => `<![CDATA[${text}]]>`;
const meta = (key: string, value: string) =>
  `<wp:postmeta><wp:meta_key>${cdata(key)}</wp:meta_key><wp:meta_value>${cdata(value)}</wp:meta_value></wp:postmeta>`;
/** A PHP-serialized string, as WordPress writes post meta arrays (the length is in bytes). */
const php = (text: string) => `s:${Buffer.byteLength(text)}:"${text}";`;
const phpRows = (rows: readonly Record<string, string>[]) =>
  `a:${rows.length}:{${rows
    .map((row, i) => {
      const entries = Object.entries(row);
      return `i:${i};a:${entries.length}:{${entries.map(([key, value]) => php(key) + php(value)).join('')}}`;
    })
    .join('')}}`;

/** Houzez writes its numbers as the user typed them: separators in either convention, units, a "From". */
function priceText(price: number, n: number, numbers: WxrNumbers): string {
  if (numbers === 'plain') return String(price);
  const grouped = price.toLocaleString('en-US');
  switch (n % 4) {
    case 0:
      return String(price);
    case 1:
      return grouped;
    case 2:
      return `€${grouped.replaceAll(',', '.')}`;
    default:
      return `${grouped.replaceAll(',', ' ')} €`;
  }
}

function term(taxonomy: string, name: string, parent = ''): string {
  return `<wp:term><wp:term_taxonomy>${cdata(taxonomy)}</wp:term_taxonomy><wp:term_slug>${cdata(slug(name))}</wp:term_slug><wp:term_parent>${cdata(parent)}</wp:term_parent><wp:term_name>${cdata(name)}</wp:term_name></wp:term>`;
}

function attachment(id: number, parent: number, file: string, mime: string): string {
  return [
    '<item>',
    `<title>${cdata(file)}</title>`,
    `<wp:post_id>${id}</wp:post_id>`,
    `<wp:post_parent>${parent}</wp:post_parent>`,
    `<wp:status>${cdata('inherit')}</wp:status>`,
    `<wp:post_type>${cdata('attachment')}</wp:post_type>`,
    `<wp:post_mime_type>${cdata(mime)}</wp:post_mime_type>`,
    `<wp:attachment_url>${cdata(`${WXR_SITE}/wp-content/uploads/2024/05/${file}`)}</wp:attachment_url>`,
    '</item>',
  ].join('');
}

function property(n: number, numbers: WxrNumbers): string {
  const houzez = numbers === 'houzez';
  const id = PROPERTY_BASE + 4 * n;
  const [country, state, city] = PLACES[n % PLACES.length]!;
  const type = TYPES[n % TYPES.length]!;
  const status = STATUSES[n % 10 === 0 ? 1 : 0]!;
  const bedrooms = 1 + (n % 5);
  const size = 60 + (n % 200);
  const price = 100_000 + ((n * 7919) % 900_000);
  const features = FEATURES.filter((_, f) => (n >> f) % 3 === 0);
  const title = `${bedrooms}-bedroom ${type} in ${city} #${n}`;
  const postName = `${slug(type)}-${slug(city)}-${n}`;
  const lat = (36 + (n % 1000) / 1000).toFixed(6);
  const lng = (-4 + (n % 1000) / 1000).toFixed(6);
  const categories = [
    ['property_type', type],
    ['property_status', status],
    ...features.map((feature) => ['property_feature', feature]),
    ...(n % 7 === 0 ? [['property_label', LABELS[n % 2]!]] : []),
    ['property_country', country],
    ['property_state', state],
    ['property_city', city],
    ['property_area', `District ${n % 8}`],
  ].map(([taxonomy, name]) => `<category domain="${taxonomy}" nicename="${slug(name!)}">${cdata(name!)}</category>`);
  const plans =
    n % 5 === 0
      ? [
          meta(
            'floor_plans',
            phpRows([
              {
                fave_plan_title: 'Ground floor',
                fave_plan_rooms: String(bedrooms),
                fave_plan_bathrooms: '1.5',
                fave_plan_price: '',
                fave_plan_price_postfix: '',
                fave_plan_size: !houzez
                  ? String(size)
                  : n % 2 === 0
                    ? `${size} m²`
                    : `${(size * 10.764).toLocaleString('en-US', { maximumFractionDigits: 0 })} Sq Ft`,
                fave_plan_size_postfix: '',
                fave_plan_image: `${WXR_SITE}/wp-content/uploads/2024/05/plan-${n}.jpg`,
                fave_plan_description: 'Living room and kitchen',
              },
            ]),
          ),
        ]
      : [];
  const additional =
    n % 3 === 0
      ? [
          meta(
            'additional_features',
            phpRows([
              { fave_additional_feature_title: 'Orientation', fave_additional_feature_value: n % 2 === 0 ? 'South' : 'West' },
              { fave_additional_feature_title: 'Renovated', fave_additional_feature_value: String(2000 + (n % 24)) },
            ]),
          ),
        ]
      : [];
  const brochure = n % 10 === 0;
  return [
    '<item>',
    `<title>${cdata(title)}</title>`,
    `<link>${WXR_SITE}/property/${postName}/</link>`,
    `<dc:creator>${cdata(`author${n % AUTHORS}`)}</dc:creator>`,
    `<content:encoded>${cdata(
      `<p>A bright ${type.toLowerCase()} of ${size} m² with ${bedrooms} bedrooms in ${city}.</p><p>Close to shops, schools and transport; renovated ${2000 + (n % 24)}.</p>`,
    )}</content:encoded>`,
    `<wp:post_id>${id}</wp:post_id>`,
    `<wp:post_date_gmt>${cdata('2024-03-05 14:30:00')}</wp:post_date_gmt>`,
    `<wp:post_modified_gmt>${cdata('2024-05-20 09:15:00')}</wp:post_modified_gmt>`,
    `<wp:post_name>${cdata(postName)}</wp:post_name>`,
    `<wp:status>${cdata(n % 20 === 0 ? 'draft' : 'publish')}</wp:status>`,
    `<wp:post_type>${cdata('property')}</wp:post_type>`,
    ...categories,
    meta('fave_property_price', priceText(price, n, numbers)),
    ...(n % 4 === 0 ? [meta('fave_property_sec_price', priceText(Math.round(price * 0.9), n + 1, numbers))] : []),
    meta('fave_property_price_prefix', n % 6 === 0 ? 'From' : ''),
    meta('fave_property_price_postfix', status === 'For Rent' ? '/month' : ''),
    meta('fave_currency', 'eur'),
    meta('fave_property_size', String(size)),
    meta('fave_property_size_prefix', 'm²'),
    meta('fave_property_land', n % 8 === 1 ? (houzez ? (size * 3).toLocaleString('en-US') : String(size * 3)) : ''),
    meta('fave_property_land_postfix', n % 8 === 1 ? 'm²' : ''),
    meta('fave_property_bedrooms', String(bedrooms)),
    meta('fave_property_bathrooms', String(1 + (n % 3))),
    meta('fave_property_rooms', String(bedrooms + 2)),
    meta('fave_property_garage', String(n % 3)),
    meta('fave_property_garage_size', n % 3 === 0 ? '' : `${15 * (n % 3)} m²`),
    meta('fave_property_year', String(1950 + (n % 74))),
    meta('fave_property_id', `REF-${n}`),
    meta('fave_property_map_address', `${1 + (n % 300)} Main Street, ${city}, ${country}`),
    meta('fave_property_address', `${1 + (n % 300)} Main Street`),
    meta('fave_property_zip', String(10_000 + (n % 90_000))),
    meta('fave_property_location', `${lat},${lng},15`),
    meta('houzez_geolocation_lat', lat),
    meta('houzez_geolocation_long', lng),
    meta('fave_featured', n % 25 === 0 ? '1' : '0'),
    meta('fave_agents', String(AGENT_BASE + (n % AGENTS))),
    meta('fave_property_agency', String(AGENCY_BASE + (n % AGENCIES))),
    meta('fave_agent_display_option', 'agent_info'),
    meta('fave_property_images', String(id + 1)),
    meta('fave_property_images', String(id + 2)),
    meta('_thumbnail_id', String(id + 1)),
    ...(brochure ? [meta('fave_attachments', String(id + 3))] : []),
    ...additional,
    ...plans,
    ...(n % 4 === 0 ? [meta('fave_video_url', `https://www.youtube.com/watch?v=bench${n}`)] : []),
    '</item>',
    attachment(id + 1, id, `photo-${n}-1.jpg`, 'image/jpeg'),
    attachment(id + 2, id, `photo-${n}-2.jpg`, 'image/jpeg'),
    ...(brochure ? [attachment(id + 3, id, `brochure-${n}.pdf`, 'application/pdf')] : []),
  ].join('\n');
}

/**
 * How the export writes its numbers: `houzez` as Houzez users type them ("1,250,000", "€1.250.000", "1 250 000 €",
 * a plan size "120 m²" or "1,292 Sq Ft"), `plain` as bare digits (what the reader took before it read free text,
 * to compare builds on the same file).
 */
export type WxrNumbers = 'houzez' | 'plain';

/**
 * A Houzez site's WordPress export (Tools → Export) of `count` properties, written in chunks: 10 authors, 5
 * agencies, 20 agents, the terms of the types, statuses, features, labels and places, then the properties, each
 * with every field a Houzez listing page shows filled as Houzez writes it (prices with separators in either
 * convention and a currency symbol, sizes with units), two pictures (attachment posts after it), one in five a
 * floor plan whose size is free text, one in three additional features, one in ten a PDF brochure
 * (`fave_attachments`), one in twenty a draft.
 */
export function writeWxrSite(file: string, count: number, numbers: WxrNumbers = 'houzez'): void {
  const out = fs.openSync(file, 'w');
  try {
    const head = [
      '<?xml version="1.0" encoding="UTF-8" ?>',
      '<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">',
      '<channel>',
      '<title>Bench Homes</title>',
      `<link>${WXR_SITE}</link>`,
      '<wp:wxr_version>1.2</wp:wxr_version>',
      `<wp:base_site_url>${WXR_SITE}</wp:base_site_url>`,
      `<wp:base_blog_url>${WXR_SITE}</wp:base_blog_url>`,
    ];
    for (let a = 0; a < AUTHORS; a++) {
      head.push(
        `<wp:author><wp:author_login>${cdata(`author${a}`)}</wp:author_login><wp:author_email>${cdata(`author${a}@bench-site.example`)}</wp:author_email><wp:author_display_name>${cdata(`Author ${a}`)}</wp:author_display_name><wp:author_first_name>${cdata('Author')}</wp:author_first_name><wp:author_last_name>${cdata(String(a))}</wp:author_last_name></wp:author>`,
      );
    }
    head.push(term('property_type', 'Residential'));
    for (const type of TYPES) head.push(term('property_type', type, type === 'Office' || type === 'Land' ? '' : 'residential'));
    for (const status of STATUSES) head.push(term('property_status', status));
    for (const feature of FEATURES) head.push(term('property_feature', feature));
    for (const label of LABELS) head.push(term('property_label', label));
    for (const [country, state, city] of PLACES) {
      head.push(term('property_country', country), term('property_state', state), term('property_city', city));
    }
    for (let d = 0; d < 8; d++) head.push(term('property_area', `District ${d}`));
    for (let a = 0; a < AGENCIES; a++) {
      head.push(
        [
          '<item>',
          `<title>${cdata(`Agency ${a}`)}</title>`,
          `<link>${WXR_SITE}/agency/agency-${a}/</link>`,
          `<dc:creator>${cdata('author0')}</dc:creator>`,
          `<wp:post_id>${AGENCY_BASE + a}</wp:post_id>`,
          `<wp:status>${cdata('publish')}</wp:status>`,
          `<wp:post_type>${cdata('houzez_agency')}</wp:post_type>`,
          meta('fave_agency_email', `agency${a}@bench-site.example`),
          meta('fave_agency_phone', `+34 952 000 ${100 + a}`),
          '</item>',
        ].join(''),
      );
    }
    for (let a = 0; a < AGENTS; a++) {
      head.push(
        [
          '<item>',
          `<title>${cdata(`Agent ${a}`)}</title>`,
          `<link>${WXR_SITE}/agent/agent-${a}/</link>`,
          `<dc:creator>${cdata('author0')}</dc:creator>`,
          `<wp:post_id>${AGENT_BASE + a}</wp:post_id>`,
          `<wp:status>${cdata('publish')}</wp:status>`,
          `<wp:post_type>${cdata('houzez_agent')}</wp:post_type>`,
          meta('fave_agent_email', `agent${a}@bench-site.example`),
          meta('fave_agent_mobile', `+34 600 000 ${100 + a}`),
          meta('fave_agent_agencies', String(AGENCY_BASE + (a % AGENCIES))),
          '</item>',
        ].join(''),
      );
    }
    fs.writeSync(out, `${head.join('\n')}\n`);
    let chunk: string[] = [];
    for (let n = 0; n < count; n++) {
      chunk.push(property(n, numbers));
      if (chunk.length === 500) {
        fs.writeSync(out, `${chunk.join('\n')}\n`);
        chunk = [];
      }
    }
    fs.writeSync(out, `${chunk.join('\n')}\n</channel>\n</rss>\n`);
  } finally {
    fs.closeSync(out);
  }
}
