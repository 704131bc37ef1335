/**
 * Colour contrast as WCAG 2.x measures it (relative luminance of sRGB), for the brand's colours: the site draws
 * white text on the primary colour (buttons, the current page of a pager) and the primary colour as text on the
 * white page (links), dark text on the accent colour (badges) and the accent colour as the focus ring on the white
 * page. A colour that fails those pairs would make the site fail AA, so it is refused rather than stored.
 */

/** The text drawn on the accent colour (the site's `--ink`). */
const DARK_TEXT = '#1b1f24';
const WHITE = '#ffffff';
/** AA for normal text (1.4.3), and for a focus ring or other user-interface part (1.4.11). */
const TEXT_CONTRAST = 4.5;
const NON_TEXT_CONTRAST = 3;

/** Relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A ratio as a person reads it: rounded down to two decimals, so that 4.499 never shows as "4.5". */
export function ratioText(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}

/** Whether white text on the primary colour (and the primary colour as text on white) reaches AA. */
export function primaryContrastOf(hex: string): { ratio: number; ok: boolean } {
  const ratio = contrastRatio(hex, WHITE);
  return { ratio, ok: ratio >= TEXT_CONTRAST };
}

/** Whether dark text on the accent colour reaches AA, and the accent as a focus ring on white reaches 3:1. */
export function accentContrastOf(hex: string): { onDark: number; onWhite: number; ok: boolean } {
  const onDark = contrastRatio(hex, DARK_TEXT);
  const onWhite = contrastRatio(hex, WHITE);
  return { onDark, onWhite, ok: onDark >= TEXT_CONTRAST && onWhite >= NON_TEXT_CONTRAST };
}
