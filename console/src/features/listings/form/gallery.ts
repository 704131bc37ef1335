/** Pure steps of the gallery editor: order, removal, and which file types are photos. */

/** `items` with the one at `from` moved to `to` (both clamped to the list); the same list when nothing moves. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(items.length - 1, to));
  if (from < 0 || from >= items.length || from === target) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved as T);
  return next;
}

/** Types the API keeps as photos (docs/api.md 9); PDF is accepted there too, but is no gallery picture. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export function isPhotoFile(file: { type: string }): boolean {
  return (PHOTO_TYPES as readonly string[]).includes(file.type);
}

/**
 * The featured image after a change of the gallery: kept while it is still there, else none (the API then
 * features the first image).
 */
export function keepFeatured(featured: string, ids: readonly number[]): string {
  return featured !== '' && ids.includes(Number(featured)) ? featured : '';
}
