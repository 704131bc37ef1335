import type { PriceBucket } from './explore-state';
import type { Media } from './types';

/** A range of the price facet, short and in its currency: "$0 – $2M", "250 k €". */
export function formatPriceRange(range: PriceBucket, language: string): string {
  const format = new Intl.NumberFormat(language, {
    style: 'currency',
    currency: range.currency,
    notation: 'compact',
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  });
  return range.min === range.max ? format.format(range.min) : `${format.format(range.min)} – ${format.format(range.max)}`;
}

/** The URL of the image size nearest what is wanted, else the original. */
export function imageUrl(media: Media, wanted: 'thumbnail' | 'medium' | 'large'): string {
  const order =
    wanted === 'thumbnail'
      ? (['thumbnail', 'medium', 'large'] as const)
      : wanted === 'medium'
        ? (['medium', 'large'] as const)
        : (['large', 'medium'] as const);
  for (const size of order) {
    const url = media.sizes?.[size]?.url;
    if (url) return url;
  }
  return media.url;
}

/** The images of a listing, the featured one first and each once. */
export function galleryOf(featured: Media | null, gallery: readonly Media[]): Media[] {
  const all = featured ? [featured, ...gallery] : [...gallery];
  const seen = new Set<number>();
  return all.filter((media) => (seen.has(media.id) ? false : (seen.add(media.id), true)));
}

/**
 * The paragraphs of the listing's description as plain text. The API sanitizes the description's HTML, but the
 * console still does not insert it as HTML: it reads the text of each block (DOMParser builds an inert document:
 * no scripts run, nothing loads) and the page renders those strings as text.
 */
export function descriptionParagraphs(html: string, parse: (html: string) => Document = defaultParse): string[] {
  if (!html.trim()) return [];
  const document = parse(html);
  const blocks = document.body.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, blockquote, pre');
  const texts =
    blocks.length > 0
      ? [...blocks].filter((block) => !block.querySelector('p, li')).map((block) => block.textContent ?? '')
      : (document.body.textContent ?? '').split(/\n\s*\n/);
  return texts.map((text) => text.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

function defaultParse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}
