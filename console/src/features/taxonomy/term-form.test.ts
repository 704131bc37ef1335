import { describe, expect, it } from 'vitest';
import { taxonomy, type TermRecord } from './taxonomies';
import { emptyTermForm, formToTermBody, termToForm } from './term-form';

const status: TermRecord = { id: 19, name: 'For Sale', slug: 'for-sale', description: '', count: 3, parent: 0, color: '#2E7D32' };

describe('term form', () => {
  it('a create leaves unset optional fields out', () => {
    const values = { ...emptyTermForm(), name: '  Villa ', image_url: ' ', custom_link: 'https://example.com/v' };
    expect(formToTermBody(values, taxonomy('property_type'), 'create')).toEqual({ name: 'Villa', custom_link: 'https://example.com/v' });
  });

  it('an update sends every field the taxonomy takes, null clearing optional ones', () => {
    const values = { ...termToForm(status, taxonomy('property_status')), color_set: false };
    expect(formToTermBody(values, taxonomy('property_status'), 'edit')).toEqual({
      name: 'For Sale',
      slug: 'for-sale',
      description: '',
      parent: 0,
      color: null,
    });
  });

  it('round-trips a coloured term, lower-casing the colour', () => {
    const values = termToForm(status, taxonomy('property_status'));
    expect(values.color_set).toBe(true);
    expect(formToTermBody(values, taxonomy('property_status'), 'edit').color).toBe('#2e7d32');
  });

  it('leaves colour and image fields out of taxonomies that do not take them', () => {
    const values = { ...emptyTermForm(4), name: 'Pool', color_set: true, image_url: 'https://x.test/a.png' };
    expect(formToTermBody(values, taxonomy('property_feature'), 'create')).toEqual({ name: 'Pool', parent: 4 });
  });

  it('maps the place of the level above to its body field', () => {
    const city: TermRecord = { ...status, color: undefined, parent_state: { id: 7, name: 'S', slug: 's' } };
    delete city.color;
    const values = termToForm(city, taxonomy('property_city'));
    expect(values.location_parent).toBe('7');
    expect(formToTermBody(values, taxonomy('property_city'), 'edit').state_id).toBe(7);
    expect(formToTermBody({ ...values, location_parent: '' }, taxonomy('property_city'), 'edit').state_id).toBeNull();
    expect(formToTermBody({ ...emptyTermForm(0, 3), name: 'A' }, taxonomy('property_area'), 'create')).toEqual({ name: 'A', city_id: 3 });
  });

  it('sends a place’s centre as numbers, both or neither, and nothing of it for other taxonomies', () => {
    const country: TermRecord = {
      id: 3,
      name: 'Spain',
      slug: 'spain',
      description: '',
      count: 0,
      parent: 0,
      center: { latitude: 40.4, longitude: -3.7 },
    };
    const values = termToForm(country, taxonomy('property_country'));
    expect([values.latitude, values.longitude]).toEqual(['40.4', '-3.7']);
    expect(formToTermBody(values, taxonomy('property_country'), 'edit')).toMatchObject({ latitude: 40.4, longitude: -3.7 });
    expect(formToTermBody({ ...values, latitude: '', longitude: '' }, taxonomy('property_country'), 'edit')).toMatchObject({
      latitude: null,
      longitude: null,
    });
    // One alone goes as it is: the API names the missing one beside its field.
    expect(formToTermBody({ ...values, longitude: '' }, taxonomy('property_country'), 'edit')).toMatchObject({
      latitude: 40.4,
      longitude: null,
    });
    expect(formToTermBody({ ...emptyTermForm(), name: 'Nerja' }, taxonomy('property_city'), 'create')).toEqual({ name: 'Nerja' });
    expect(
      formToTermBody({ ...emptyTermForm(), name: 'Pool', latitude: '1', longitude: '2' }, taxonomy('property_feature'), 'create'),
    ).toEqual({
      name: 'Pool',
    });
  });
});
