import type { MediaRecord } from '../../modules/media/index.js';

/** The sizes the API makes of an image (docs/api.md 9), smallest first: a srcset of them lets the browser pick. */
const SRCSET_SIZES = ['medium', 'large'] as const;

export interface PictureSource {
  readonly src: string;
  readonly srcset: string;
  readonly width: number;
  readonly height: number;
}

/** A record's media reference (a `$ref` in the record schemas, so typed loosely there) as the media record it is. */
export function mediaOf(reference: unknown): MediaRecord | null {
  return (reference ?? null) as MediaRecord | null;
}

/** The src, srcset and intrinsic size of an image; null for a document or an image without its sizes. */
export function pictureSource(media: MediaRecord): PictureSource | null {
  const candidates = SRCSET_SIZES.map((name) => media.sizes[name]).filter((size) => size !== undefined);
  const smallest =
    candidates[0] ?? (media.width && media.height ? { url: media.url, width: media.width, height: media.height } : undefined);
  if (!smallest) return null;
  const srcset = (candidates.length > 0 ? candidates : [smallest]).map((size) => `${size.url} ${size.width}w`).join(', ');
  return { src: smallest.url, srcset, width: smallest.width, height: smallest.height };
}

/**
 * A responsive image with its intrinsic width and height (so that nothing shifts as it loads), lazy unless it is
 * the page's first picture, which is fetched with high priority instead.
 */
export function Picture({
  media,
  sizes,
  alt,
  priority = false,
  className,
}: {
  media: MediaRecord;
  sizes: string;
  alt: string;
  priority?: boolean;
  className?: string;
}) {
  const source = pictureSource(media);
  if (!source) return null;
  return (
    <img
      class={className}
      src={source.src}
      srcset={source.srcset}
      sizes={sizes}
      width={source.width}
      height={source.height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchpriority={priority ? 'high' : undefined}
    />
  );
}
