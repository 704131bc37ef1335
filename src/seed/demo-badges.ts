/**
 * Drawings for the demo directory: a monogram portrait for each agent and a monogram logo for each agency,
 * drawn here as SVG (no files or downloads), in a colour picked from the name so that every seed draws
 * the same ones.
 */

const SIZE = 400;

/** The initials of a name: the first letter of its first two words (`Olivia Carter` → `OC`). */
function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

/** A hue in degrees derived from the text: the same name always gets the same colour. */
function hueOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.codePointAt(0)!) % 360;
  return hash;
}

/** XML-safe initials (names like `O'Connor` give plain letters, but names are data). */
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A head-and-shoulders silhouette on a coloured disc, with the person's initials. */
export function portraitSvg(name: string): string {
  const hue = hueOf(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">` +
    `<rect width="${SIZE}" height="${SIZE}" fill="hsl(${hue},45%,88%)"/>` +
    `<circle cx="200" cy="150" r="80" fill="hsl(${hue},35%,45%)"/>` +
    `<path d="M60 400 C60 280 340 280 340 400 Z" fill="hsl(${hue},35%,45%)"/>` +
    `<text x="200" y="172" font-family="sans-serif" font-size="64" font-weight="bold" fill="#ffffff" text-anchor="middle">` +
    `${escapeXml(initialsOf(name))}</text></svg>`
  );
}

/** A rounded square with a roof line over the agency's initials. */
export function logoSvg(name: string): string {
  const hue = hueOf(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">` +
    `<rect width="${SIZE}" height="${SIZE}" fill="#ffffff"/>` +
    `<rect x="40" y="40" width="320" height="320" rx="48" fill="hsl(${hue},55%,38%)"/>` +
    `<path d="M110 190 L200 110 L290 190" stroke="#ffffff" stroke-width="18" fill="none" stroke-linejoin="round"/>` +
    `<text x="200" y="290" font-family="serif" font-size="96" font-weight="bold" fill="#ffffff" text-anchor="middle">` +
    `${escapeXml(initialsOf(name))}</text></svg>`
  );
}
