import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListingRecord, MediaRecord, TermRef } from '../types';
import { emptyFormValues, parseNumber, toFormValues, toRequestBody } from './form-values';

const term = (id: number): TermRef => ({ id, name: `Term ${id}`, slug: `term-${id}` });
const media = (id: number): MediaRecord => ({
  id,
  url: `http://x/uploads/${id}.png`,
  mime_type: 'image/png',
  width: 10,
  height: 10,
  size_bytes: 0,
  title: '',
  caption: '',
  alt: '',
  description: '',
  sizes: { thumbnail: { url: `http://x/uploads/${id}-thumbnail.png`, width: 10, height: 10 } },
  owner_id: 1,
  created_at: '2026-01-01T00:00:00Z',
});

// Negative zero reads back as zero, which the API stores alike: the records here carry plain zero.
const double = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((value) => value + 0);
const money = fc.option(double(0, 1e12), { nil: null });
const count = fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null });
const text = fc.string({ maxLength: 20 });
const ids = fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { maxLength: 6 });
const place = fc.option(fc.integer({ min: 1, max: 5000 }).map(term), { nil: null });
const unit = fc.constantFrom('sqft' as const, 'm2' as const);

const recordArbitrary: fc.Arbitrary<ListingRecord> = fc
  .record({
    title: fc.string({ minLength: 3, maxLength: 40 }).filter((value) => value.trim() === value && value.length >= 3),
    description: text,
    reference: text,
    price: money,
    second_price: money,
    currency: fc.constantFrom('USD', 'EUR', 'AED'),
    price_prefix: text,
    price_postfix: text,
    bedrooms: count,
    bathrooms: count,
    rooms: count,
    garage: count,
    garage_size: text,
    size: money,
    size_unit: unit,
    land_size: money,
    land_size_unit: unit,
    year_built: fc.option(fc.integer({ min: 1000, max: 2030 }), { nil: null }),
    types: ids,
    statuses: ids,
    labels: ids,
    features: ids,
    country: place,
    state: place,
    city: place,
    area: place,
    address: text,
    zipcode: text,
    latitude: fc.option(double(-90, 90), { nil: null }),
    longitude: fc.option(double(-180, 180), { nil: null }),
    gallery: ids,
    featuredIndex: fc.nat(),
    floor_plans: fc.array(
      fc.record({
        title: text,
        rooms: count,
        bathrooms: count,
        price: money,
        price_postfix: text,
        size: money,
        size_postfix: text,
        description: text,
        image_url: fc.constantFrom('', 'https://example.com/plan.png'),
      }),
      { maxLength: 3 },
    ),
    additional_features: fc.array(fc.record({ title: text, value: text }), { maxLength: 3 }),
    video_url: fc.constantFrom('', 'https://video.example/1'),
    virtual_tour: fc.constantFrom('', 'https://tour.example/1'),
    agent_display: fc.constantFrom('agent_info' as const, 'agency_info' as const, 'author_info' as const, 'none' as const),
    agents: ids,
  })
  .map((x) => {
    const gallery = x.gallery.map(media);
    return {
      id: 1,
      slug: 's',
      url: 'http://x/property/s',
      excerpt: '',
      status: 'draft',
      formatted_price: '',
      featured: false,
      title: x.title,
      description: x.description,
      reference: x.reference,
      price: x.price,
      second_price: x.second_price,
      currency: x.currency,
      price_prefix: x.price_prefix,
      price_postfix: x.price_postfix,
      bedrooms: x.bedrooms,
      bathrooms: x.bathrooms,
      rooms: x.rooms,
      garage: x.garage,
      garage_size: x.garage_size,
      size: x.size,
      size_unit: x.size_unit,
      land_size: x.land_size,
      land_size_unit: x.land_size_unit,
      year_built: x.year_built,
      address: {
        address: x.address,
        zipcode: x.zipcode,
        country: x.country,
        state: x.state,
        city: x.city,
        area: x.area,
        latitude: x.latitude,
        longitude: x.longitude,
      },
      property_type: x.types.map(term),
      property_status: x.statuses.map(term),
      property_label: x.labels.map(term),
      features: x.features.map(term),
      gallery,
      featured_image: gallery.length ? gallery[x.featuredIndex % gallery.length]! : null,
      floor_plans: x.floor_plans,
      additional_features: x.additional_features,
      video_url: x.video_url,
      virtual_tour: x.virtual_tour,
      agent_display: x.agent_display,
      agents: x.agents.map((id) => ({ id, name: `Agent ${id}`, slug: `agent-${id}`, url: '', email: '', phone: '', agency_id: null })),
      agency: null,
      author: null,
      views: 0,
      rating: null,
      reviews_count: 0,
      is_favorite: false,
      attachments: [],
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      published_at: null,
      expires_at: null,
    } satisfies ListingRecord;
  });

describe('toRequestBody(toFormValues(record))', () => {
  it('sends back every field of the record unchanged', () => {
    fc.assert(
      fc.property(recordArbitrary, (record) => {
        const body = toRequestBody(toFormValues(record), { mode: 'update' });
        expect(body).toEqual({
          title: record.title,
          description: record.description,
          reference: record.reference,
          price: record.price,
          second_price: record.second_price,
          currency: record.currency,
          price_prefix: record.price_prefix,
          price_postfix: record.price_postfix,
          bedrooms: record.bedrooms,
          bathrooms: record.bathrooms,
          rooms: record.rooms,
          garage: record.garage,
          garage_size: record.garage_size,
          size: record.size,
          size_unit: record.size_unit,
          land_size: record.land_size,
          land_size_unit: record.land_size_unit,
          year_built: record.year_built,
          type_ids: record.property_type.map((t) => t.id),
          status_ids: record.property_status.map((t) => t.id),
          label_ids: record.property_label.map((t) => t.id),
          feature_ids: record.features.map((t) => t.id),
          country: record.address.country?.id ?? null,
          state: record.address.state?.id ?? null,
          city: record.address.city?.id ?? null,
          area: record.address.area?.id ?? null,
          address: record.address.address,
          zipcode: record.address.zipcode,
          latitude: record.address.latitude,
          longitude: record.address.longitude,
          media_ids: record.gallery.map((m) => m.id),
          featured_image_id: record.featured_image?.id ?? null,
          floor_plans: record.floor_plans,
          additional_features: record.additional_features,
          video_url: record.video_url,
          virtual_tour: record.virtual_tour,
          agent_display: record.agent_display,
          agent_ids: record.agents.map((a) => a.id),
        });
        expect(body.draft).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe('toRequestBody for a new listing', () => {
  it('leaves out what is empty and keeps the title', () => {
    const body = toRequestBody(emptyFormValues(), { mode: 'create' });
    expect(body).toEqual({ title: '', size_unit: 'sqft', land_size_unit: 'sqft', agent_display: 'author_info' });
  });

  it('asks for a draft only when told', () => {
    const values = { ...emptyFormValues({ agentId: 7 }), title: ' Flat ', price: '1500', latitude: '40.5', longitude: '-3.25' };
    expect(toRequestBody(values, { mode: 'create', draft: true })).toEqual({
      title: 'Flat',
      price: 1500,
      latitude: 40.5,
      longitude: -3.25,
      size_unit: 'sqft',
      land_size_unit: 'sqft',
      agent_display: 'agent_info',
      agent_ids: [7],
      draft: true,
    });
  });

  it('sends the gallery in order and drops a featured image that is not in it', () => {
    const values = {
      ...emptyFormValues(),
      title: 'Flat',
      gallery: [3, 1, 2].map((id) => ({ id, url: '', thumbnail: '', alt: '' })),
      featured_image_id: '9',
    };
    const body = toRequestBody(values, { mode: 'update' });
    expect(body.media_ids).toEqual([3, 1, 2]);
    expect(body.featured_image_id).toBeNull();
    expect(toRequestBody({ ...values, featured_image_id: '1' }, { mode: 'update' }).featured_image_id).toBe(1);
  });

  it('upper-cases the currency and leaves an empty one to the API', () => {
    expect(toRequestBody({ ...emptyFormValues(), currency: 'eur' }, { mode: 'update' }).currency).toBe('EUR');
    expect('currency' in toRequestBody(emptyFormValues(), { mode: 'update' })).toBe(false);
  });
});

describe('parseNumber', () => {
  it('reads numbers, empties and leaves nonsense for the API to name', () => {
    expect(parseNumber('')).toBeNull();
    expect(parseNumber(' 12.5 ')).toBe(12.5);
    expect(parseNumber('abc')).toBe('abc');
  });
});
