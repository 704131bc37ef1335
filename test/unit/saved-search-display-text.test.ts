import { describe, expect, it } from 'vitest';
import type { Language } from '../../src/i18n/index.js';
import { displayTextOf, type NamedTerm, termNameLookup } from '../../src/modules/saved-searches/display-text.js';
import type { SearchQuery } from '../../src/modules/search/query/search-types.js';

const TERMS: NamedTerm[] = [
  { id: 1, taxonomy: 'property_type', slug: 'apartment', name: 'Apartment' },
  { id: 2, taxonomy: 'property_type', slug: 'villa', name: 'Villa' },
  { id: 3, taxonomy: 'property_status', slug: 'for-sale', name: 'For Sale' },
  { id: 4, taxonomy: 'property_country', slug: 'united-states', name: 'United States' },
  { id: 5, taxonomy: 'property_state', slug: 'florida', name: 'Florida' },
  { id: 6, taxonomy: 'property_city', slug: 'miami', name: 'Miami' },
  { id: 7, taxonomy: 'property_city', slug: 'orlando', name: 'Orlando' },
  { id: 8, taxonomy: 'property_area', slug: 'brickell', name: 'Brickell' },
  { id: 9, taxonomy: 'property_feature', slug: 'pool', name: 'Pool' },
  { id: 10, taxonomy: 'property_feature', slug: 'garden', name: 'Garden' },
  { id: 11, taxonomy: 'property_label', slug: 'hot-offer', name: 'Hot Offer' },
  // Same slug in another taxonomy: must not be taken for the city.
  { id: 12, taxonomy: 'property_type', slug: 'miami', name: 'Miami-style bungalow' },
];
const names = termNameLookup(TERMS);
const text = (query: SearchQuery, language: Language = 'en') => displayTextOf(query, names, language);

// What Intl writes: a no-break space (U+00A0) before a trailing currency sign, a narrow one (U+202F) between French digit groups.
const NBSP = '\u00a0';
const NNBSP = '\u202f';
/** Arabic amounts start with a right-to-left mark. */
const RLM = '\u200f';

describe('display text of a saved search', () => {
  it('reads like the contract’s example: types and statuses, the place, bedrooms and the price range', () => {
    const query: SearchQuery = {
      terms: { type: ['apartment'], status: ['for-sale'], city: ['miami'] },
      price: { min: 200_000, max: 500_000 },
      currency: 'USD',
      bedrooms: { min: 2 },
    };
    expect(text(query)).toBe('Apartment For Sale in Miami · 2+ beds · $200,000–$500,000');
    expect(text(query, 'fr')).toBe(`Apartment For Sale à Miami · 2+ chambres · 200${NNBSP}000${NBSP}$–500${NNBSP}000${NBSP}$`);
    expect(text(query, 'es')).toBe(`Apartment For Sale en Miami · 2+ habitaciones · 200.000${NBSP}$–500.000${NBSP}$`);
    expect(text(query, 'ar')).toBe(`Apartment For Sale في Miami · غرف النوم: 2+ · ${RLM}200,000${NBSP}US$–${RLM}500,000${NBSP}US$`);
  });

  it('names the most specific place given, several values as alternatives, by slug or by id', () => {
    expect(text({ terms: { country: ['united-states'], state: ['florida'], city: ['miami'], area: ['brickell'] } })).toBe(
      'Properties in Brickell',
    );
    expect(text({ terms: { country: ['united-states'], state: ['florida'] } })).toBe('Properties in Florida');
    expect(text({ terms: { city: ['6', 'orlando'] } })).toBe('Properties in Miami or Orlando');
    expect(text({ terms: { type: ['apartment', '2'] } })).toBe('Apartment or Villa');
    expect(text({ terms: { type: ['apartment', 'villa'] } }, 'fr')).toBe('Apartment ou Villa');
  });

  it('shows a value that names no term as it was written', () => {
    expect(text({ terms: { city: ['atlantis'], type: ['999'] } })).toBe('999 in atlantis');
  });

  it('lists labels, and features as all of them', () => {
    expect(text({ terms: { label: ['hot-offer'], feature: ['pool', 'garden'] } })).toBe('Properties · Hot Offer · with Pool and Garden');
    expect(text({ terms: { feature: ['pool', 'garden'] } }, 'es')).toBe('Propiedades · con Pool y Garden');
  });

  it('writes bedroom and bathroom counts as ranges, singular only where the count is one', () => {
    expect(text({ bedrooms: { min: 1, max: 1 } })).toBe('Properties · 1 bed');
    expect(text({ bedrooms: { max: 1 } })).toBe('Properties · up to 1 bed');
    expect(text({ bedrooms: { min: 2, max: 3 } })).toBe('Properties · 2–3 beds');
    expect(text({ bedrooms: { min: 3, max: 3 }, bathrooms: { min: 2 } })).toBe('Properties · 3 beds · 2+ baths');
    expect(text({ bathrooms: { max: 1 } }, 'fr')).toBe('Biens · jusqu’à 1 salle de bain');
    expect(text({ bedrooms: { max: 4 } }, 'ar')).toBe('عقارات · غرف النوم: حتى 4');
  });

  it('writes prices from, up to, between, with cents when a bound has them, in the currency when given', () => {
    expect(text({ price: { min: 200_000 }, currency: 'USD' })).toBe('Properties · from $200,000');
    expect(text({ price: { max: 500_000 }, currency: 'EUR' })).toBe('Properties · up to €500,000');
    expect(text({ price: { min: 200_000, max: 500_000 } })).toBe('Properties · 200,000–500,000');
    expect(text({ price: { min: 1500.5, max: 2000 }, currency: 'USD' })).toBe('Properties · $1,500.50–$2,000.00');
    expect(text({ currency: 'EUR' })).toBe('Properties · prices in EUR');
    expect(text({ size: { min: 50, max: 120 } })).toBe('Properties · size 50–120');
  });

  it('quotes the keyword in the language’s quotation marks', () => {
    expect(text({ keyword: 'sea view' })).toBe('Properties · “sea view”');
    expect(text({ keyword: 'sea view' }, 'fr')).toBe(`Biens · «${NBSP}sea view${NBSP}»`);
  });

  it('describes the map filters: near a point, within a distance of it, a box, a polygon', () => {
    const centre = { latitude: 25.77, longitude: -80.19 };
    expect(text({ circle: { ...centre, unit: 'km' } })).toBe('Properties · near 25.77, -80.19');
    expect(text({ circle: { ...centre, radius: 5, unit: 'km' } })).toBe('Properties · within 5 km of 25.77, -80.19');
    expect(text({ circle: { ...centre, radius: 2.5, unit: 'mi' } }, 'es')).toBe('Propiedades · a menos de 2,5 mi de 25.77, -80.19');
    expect(text({ circle: { ...centre, radius: 5, unit: 'km' } }, 'ar')).toBe('عقارات · ضمن 5 كم من 25.77, -80.19');
    expect(text({ box: { north: 26, south: 25, east: -80, west: -81 } })).toBe('Properties · in an area of the map');
    const polygon = [centre, { latitude: 26, longitude: -80 }, { latitude: 25, longitude: -81 }];
    expect(text({ polygon, featured: true, include_sold: true })).toBe('Properties · in a drawn area · featured only · sold ones included');
  });

  it('says “all properties” for a search without filters, whatever its order', () => {
    expect(text({})).toBe('All properties');
    expect(text({ sortby: 'a_price' })).toBe('All properties');
    expect(text({}, 'ar')).toBe('جميع العقارات');
    // A filter the text does not spell out still makes it not “all”.
    expect(text({ reference: 'HZ-1' })).toBe('Properties');
  });
});
