/**
 * The website's brand (GET/PUT /site-settings, docs/api.md 14) and the pure logic of its console page: the form
 * values ↔ the record and the PUT body, the home sections' order, and the contrast rules the API applies to the
 * colours (WCAG 2 relative luminance), so that the live preview warns before the API refuses.
 */
import type { Schemas } from '@realty-api/client';

export type HomeSection = Schemas['SiteSettings']['home_sections'][number];
const HOME_SECTIONS = ['search', 'featured', 'newest', 'cities'] as const satisfies readonly HomeSection[];

/** The site's settings as GET /site-settings answers them. */
export type SiteSettingsRecord = Schemas['SiteSettings'];

/** One row of the sections editor: a section, in its place, shown or not. */
export interface SectionRow {
  section: HomeSection;
  shown: boolean;
}

export interface BrandFormValues {
  site_name: string;
  tagline: string;
  primary_color: string;
  accent_color: string;
  contact_email: string;
  contact_phone: string;
  contact_address: string;
}

const TEXT_FIELDS = ['site_name', 'tagline', 'primary_color', 'accent_color', 'contact_email', 'contact_phone', 'contact_address'] as const;

export function brandToForm(record: Partial<SiteSettingsRecord> | undefined): BrandFormValues {
  const values = {} as BrandFormValues;
  for (const field of TEXT_FIELDS) values[field] = String(record?.[field] ?? '');
  return values;
}

/** The shown sections in their order, then the hidden ones in the site's own order. */
export function sectionRows(shown: readonly HomeSection[] | undefined): SectionRow[] {
  const order = shown ?? HOME_SECTIONS;
  return [
    ...order.map((section) => ({ section, shown: true })),
    ...HOME_SECTIONS.filter((section) => !order.includes(section)).map((section) => ({ section, shown: false })),
  ];
}

/** The rows with the one at `from` moved to `to` (bounds kept). */
export function moveRow<T>(rows: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= rows.length || from === to) return [...rows];
  const next = [...rows];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

export type BrandBody = Partial<Omit<SiteSettingsRecord, 'logo_url' | 'hero_image_url' | 'updated_at'>>;

/**
 * The body of PUT /site-settings: only what differs from the record as loaded (the API keeps what is left out),
 * text trimmed, colours lower-cased, pictures as media ids (null removes one).
 */
export function brandChanges(
  values: BrandFormValues,
  rows: readonly SectionRow[],
  pictures: { logo_id: number | null; hero_image_id: number | null },
  original: SiteSettingsRecord | undefined,
): BrandBody {
  const before = brandToForm(original);
  const body: BrandBody = {};
  for (const field of TEXT_FIELDS) {
    let value = values[field].trim();
    if (field === 'primary_color' || field === 'accent_color') value = value.toLowerCase();
    if (field === 'contact_email') value = value.toLowerCase();
    if (value !== before[field]) body[field] = value;
  }
  const sections = rows.filter((row) => row.shown).map((row) => row.section);
  if (sections.join() !== (original?.home_sections ?? HOME_SECTIONS).join()) body.home_sections = sections;
  if (pictures.logo_id !== (original?.logo_id ?? null)) body.logo_id = pictures.logo_id;
  if (pictures.hero_image_id !== (original?.hero_image_id ?? null)) body.hero_image_id = pictures.hero_image_id;
  return body;
}

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const DARK_TEXT = '#1b1f24';
const WHITE = '#ffffff';

function luminance(hex: string): number {
  const channel = (start: number) => {
    const c = parseInt(hex.slice(start, start + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A ratio rounded down to two decimals, as the API writes it ("4.49", never "4.5" for 4.499). */
export function ratioText(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}

export interface ColourCheck {
  /** The ratios the rule looks at, with the minimum each needs. */
  checks: { against: 'white_text' | 'dark_text' | 'white_page'; ratio: number; minimum: number }[];
  ok: boolean;
}

/** White text on the primary colour: at least 4.5:1 (as PUT /site-settings checks). Null for a malformed colour. */
export function primaryCheck(hex: string): ColourCheck | null {
  if (!HEX_COLOUR.test(hex)) return null;
  const checks = [{ against: 'white_text' as const, ratio: contrastRatio(hex, WHITE), minimum: 4.5 }];
  return { checks, ok: checks.every((check) => check.ratio >= check.minimum) };
}

/** Dark text on the accent colour at least 4.5:1, and the accent on the white page (the focus ring) at least 3:1. */
export function accentCheck(hex: string): ColourCheck | null {
  if (!HEX_COLOUR.test(hex)) return null;
  const checks = [
    { against: 'dark_text' as const, ratio: contrastRatio(hex, DARK_TEXT), minimum: 4.5 },
    { against: 'white_page' as const, ratio: contrastRatio(hex, WHITE), minimum: 3 },
  ];
  return { checks, ok: checks.every((check) => check.ratio >= check.minimum) };
}

/** The colour to preview: the typed one when it is a colour, else the stored one. */
export function previewColour(typed: string, fallback: string): string {
  return HEX_COLOUR.test(typed.trim()) ? typed.trim().toLowerCase() : fallback;
}

/** The image types POST /media/upload takes (docs/api.md 9). */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export function isPictureFile(file: { type: string }): boolean {
  return (PICTURE_TYPES as readonly string[]).includes(file.type);
}

/** The answer of POST /media/upload, as much as this page reads. */
export type UploadedMedia = Pick<Schemas['Media'], 'id' | 'url' | 'sizes'>;

/** A picture of the brand as the page shows it: its media id and the URL to show (the size the website uses). */
export interface BrandPicture {
  id: number | null;
  url: string | null;
}

export function uploadedPicture(media: UploadedMedia, size: 'medium' | 'large'): BrandPicture {
  return { id: media.id, url: media.sizes?.[size]?.url ?? media.url };
}
