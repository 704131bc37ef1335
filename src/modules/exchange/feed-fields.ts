/**
 * The listing fields a feed sets directly, named as the API names them (docs/api.md 4.6): what an import checks
 * with the API's rules and writes, and what an export reads besides the listing's state, links and times.
 */
export const FEED_SCALAR_FIELDS = [
  'title',
  'description',
  'reference',
  'price',
  'second_price',
  'currency',
  'price_prefix',
  'price_postfix',
  'bedrooms',
  'bathrooms',
  'rooms',
  'garage',
  'garage_size',
  'size',
  'size_unit',
  'land_size',
  'land_size_unit',
  'year_built',
  'featured',
  'address',
  'zipcode',
  'latitude',
  'longitude',
  'video_url',
  'virtual_tour',
  'agent_display',
  'additional_features',
  'floor_plans',
] as const;
