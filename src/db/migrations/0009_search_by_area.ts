import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A search by area (box, circle, polygon) answered from indexes, whatever the size of the area.
 *
 * listings_geo_points_idx (0006) gains the columns that facets count and that pages are ordered by (price,
 * bedrooms, bathrooms, publication time): a search over a city-sized box finds its listings' facts in the
 * index entries it reads anyway, instead of reading each listing's row (several kilobytes of text apart) once
 * per facet. Measured on SQLite with 100,000 demo listings, a box of 8,500 matches with four facets: 565 ms
 * before, the table reads being nearly all of it.
 *
 * listing_terms_facet_idx (listing_id, taxonomy, status, term_id) gives the term facets of a set of listings
 * by one seek per listing, without reading the link rows themselves.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('listings_geo_points_idx').execute();
  await db.schema
    .createIndex('listings_geo_points_idx')
    .on('listings')
    .columns([
      'status',
      'geo_key',
      'latitude',
      'longitude',
      'geo_x',
      'geo_y',
      'geo_z',
      'price',
      'bedrooms',
      'bathrooms',
      'published_at',
      'id',
    ])
    .execute();
  await db.schema
    .createIndex('listing_terms_facet_idx')
    .on('listing_terms')
    .columns(['listing_id', 'taxonomy', 'status', 'term_id'])
    .execute();
}
