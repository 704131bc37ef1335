import type { PropertyRecord } from '../../../modules/properties/index.js';
import type { PageContext } from '../../page.js';
import { fill } from '../../texts.js';
import { type Embed, tourEmbed, videoEmbed } from './embeds.js';
import { Block } from './ListingFacts.js';
import { listingText } from './listing.text.js';

/** The video and the virtual tour: a player the CSP allows in a frame, else a link, else (not http(s)) nothing. */
function Player({ embed, title, link }: { embed: Embed; title: string; link: string }) {
  if (!embed) return null;
  if (embed.kind === 'link') {
    return (
      <p>
        <a class="button button--quiet" href={embed.href} rel="nofollow noopener">
          {link}
        </a>
      </p>
    );
  }
  return (
    <div class="player">
      <iframe
        src={embed.src}
        title={title}
        loading="lazy"
        allow="fullscreen; picture-in-picture; encrypted-media; xr-spatial-tracking"
        referrerpolicy="strict-origin-when-cross-origin"
      />
    </div>
  );
}

export function Video({ ctx, listing }: { ctx: PageContext; listing: PropertyRecord }) {
  const embed = videoEmbed(listing.video_url);
  if (!embed) return null;
  const t = listingText[ctx.lang];
  return (
    <Block id="video" heading={t.video} className="no-print">
      <Player embed={embed} title={fill(t.video_title, { title: listing.title })} link={t.video_link} />
    </Block>
  );
}

export function Tour({ ctx, listing }: { ctx: PageContext; listing: PropertyRecord }) {
  const embed = tourEmbed(listing.virtual_tour);
  if (!embed) return null;
  const t = listingText[ctx.lang];
  return (
    <Block id="tour" heading={t.tour} className="no-print">
      <Player embed={embed} title={fill(t.tour_title, { title: listing.title })} link={t.tour_link} />
    </Block>
  );
}

/** OpenStreetMap's page of a point, the map of a visitor without JavaScript. */
function openStreetMapUrl(latitude: number, longitude: number): string {
  const lat = latitude.toFixed(5);
  const lng = longitude.toFixed(5);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
}

/**
 * Where the listing is: its address, and a link to the place on OpenStreetMap that browser/listing-map.js turns
 * into a map (Leaflet, fetched only once the block comes into view) with a marker.
 */
export function ListingMap({ ctx, listing, address }: { ctx: PageContext; listing: PropertyRecord; address: string }) {
  const { latitude, longitude } = listing.address;
  const hasPoint = latitude !== null && longitude !== null;
  if (!hasPoint && address === '') return null;
  const t = listingText[ctx.lang];
  return (
    <Block id="location" heading={t.location}>
      {address ? (
        <p class="listing-address">
          <bdi>{address}</bdi>
        </p>
      ) : null}
      {hasPoint ? (
        <div
          class="listing-map"
          data-listing-map=""
          data-lat={String(latitude)}
          data-lng={String(longitude)}
          data-tiles={ctx.tiles.url}
          data-attribution={ctx.tiles.attribution}
          data-label={fill(t.map_label, { title: listing.title })}
        >
          <a class="listing-map__link" href={openStreetMapUrl(latitude, longitude)} rel="nofollow noopener">
            {t.map_link}
          </a>
        </div>
      ) : null}
    </Block>
  );
}
