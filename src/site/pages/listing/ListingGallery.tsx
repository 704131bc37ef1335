import type { MediaRecord } from '../../../modules/media/index.js';
import { mediaOf, Picture, pictureSource } from '../../components/Picture.js';
import type { PageContext } from '../../page.js';
import { fill } from '../../texts.js';
import { listingText } from './listing.text.js';

/** The first picture fills the column; the others make a grid of smaller ones below it. */
export const LEAD_SIZES = '(min-width: 64em) 46rem, 100vw';
const GRID_SIZES = '(min-width: 64em) 15rem, (min-width: 40em) 30vw, 45vw';

/** The gallery's images: the pictures that have the sizes an <img> needs (a document in a gallery is left out). */
export function galleryImages(gallery: readonly unknown[]): MediaRecord[] {
  return gallery.map(mediaOf).filter((media): media is MediaRecord => media !== null && pictureSource(media) !== null);
}

/** Where a picture's link goes: its large size (the lightbox shows the same). */
function largeUrl(media: MediaRecord): string {
  return (media.sizes.large ?? media.sizes.medium)?.url ?? media.url;
}

/**
 * Every picture of the listing, each a plain link to its large size: without JavaScript that is the way to see
 * them big; browser/gallery.js turns the links into a lightbox. The first is fetched with high priority (the page
 * preloads it too), the others lazily.
 */
export function ListingGallery({ ctx, title, images }: { ctx: PageContext; title: string; images: readonly MediaRecord[] }) {
  if (images.length === 0) return null;
  const t = listingText[ctx.lang];
  const count = images.length;
  return (
    <section
      class="gallery"
      aria-label={t.photos}
      data-gallery=""
      data-label-dialog={t.viewer}
      data-label-close={t.viewer_close}
      data-label-previous={t.viewer_previous}
      data-label-next={t.viewer_next}
    >
      <ul class="gallery__list">
        {images.map((media, index) => {
          const n = index + 1;
          const alt = media.alt || fill(t.photo_alt, { title, n, count });
          return (
            <li key={media.id} class={index === 0 ? 'gallery__item gallery__item--lead' : 'gallery__item'}>
              <a
                class="gallery__link"
                href={largeUrl(media)}
                aria-label={fill(t.open_photo, { n, count })}
                data-index={index}
                data-alt={alt}
              >
                <Picture media={media} sizes={index === 0 ? LEAD_SIZES : GRID_SIZES} alt={alt} priority={index === 0} />
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
