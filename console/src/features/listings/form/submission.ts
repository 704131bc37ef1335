import type { ListingFormValues } from './form-values';

/**
 * What a listing needs before it is submitted (issue 40): the console's own rule — a title, a price or "price on
 * request", a type and a city — and the fields the site's administrator requires (GET /site-settings
 * `submission_fields`, docs/api.md 14), which the API enforces too. Drafts need none of them.
 */

/** A field of the site rule (the API's input name) → the form's field it is entered in. */
const FORM_FIELD: Readonly<Record<string, keyof ListingFormValues>> = {
  description: 'description',
  price: 'price',
  type_ids: 'type_ids',
  status_ids: 'status_ids',
  city: 'city',
  address: 'address',
  latitude: 'latitude',
  media_ids: 'gallery',
  bedrooms: 'bedrooms',
  bathrooms: 'bathrooms',
  size: 'size',
};

/** The listing messages that name each field of the site rule (the API's names), for its 400s. */
export const SUBMISSION_FIELD_LABELS: Readonly<Record<string, string>> = {
  title: 'listings.title',
  description: 'listings.description',
  price: 'listings.price',
  type_ids: 'listings.terms_types',
  status_ids: 'listings.terms_statuses',
  city: 'listings.place_city',
  address: 'listings.address',
  latitude: 'listings.map_label',
  media_ids: 'listings.gallery',
  bedrooms: 'listings.bedrooms',
  bathrooms: 'listings.bathrooms',
  size: 'listings.size',
};

function filled(values: ListingFormValues, field: keyof ListingFormValues): boolean {
  const value = values[field];
  if (Array.isArray(value)) return value.length > 0;
  if (field === 'description')
    return (
      String(value)
        .replace(/<[^>]*>/g, '')
        .trim() !== ''
    );
  if (field === 'latitude') return values.latitude.trim() !== '' && values.longitude.trim() !== '';
  return String(value).trim() !== '';
}

/**
 * The form fields left empty that a submission needs, in the form's order. `priceOnRequest` stands in for the
 * console's own price rule, not for the site's: a site that requires a price requires a number.
 */
export function missingForSubmission(
  values: ListingFormValues,
  siteFields: readonly string[],
  priceOnRequest: boolean,
): (keyof ListingFormValues)[] {
  const wanted = new Set<keyof ListingFormValues>(['title', 'type_ids', 'city']);
  if (!priceOnRequest) wanted.add('price');
  for (const field of siteFields) {
    const formField = FORM_FIELD[field];
    if (formField) wanted.add(formField);
  }
  const order = Object.keys(values) as (keyof ListingFormValues)[];
  return order.filter((field) => wanted.has(field) && !filled(values, field));
}
