import { Type } from 'typebox';
import { Pagination } from '../../lib/paging.js';

const PriceRangeValue = Type.Object(
  {
    min: Type.Number({ description: 'Inclusive' }),
    max: Type.Number({ description: 'Exclusive, except in the highest range, which holds its own `max` too' }),
    currency: Type.String({ description: 'ISO 4217: every price counted is in it (the search’s `currency`, else DEFAULT_CURRENCY)' }),
    status: Type.Union([Type.String(), Type.Null()], {
      description:
        'The slug of the status term (for-sale, for-rent, …) every counted listing has: the search’s status if it names one, ' +
        'else the one most priced matches have (ties: the first slug); null when none has a status',
    }),
  },
  { additionalProperties: false },
);

const FacetCount = Type.Object({
  value: Type.Union([Type.String(), Type.Number(), PriceRangeValue], {
    description: 'The term’s slug; the number of bedrooms or bathrooms; a price range',
  }),
  name: Type.String(),
  count: Type.Integer({ minimum: 1 }),
});

export const SearchAnswer = Type.Object({
  properties: Type.Array(Type.Ref('PropertySummary')),
  pagination: Pagination,
  facets: Type.Optional(
    Type.Record(Type.String(), Type.Array(FacetCount), {
      description:
        'Only with `facets`: each requested name → its counts, by count descending (ties by value). Each facet’s ' +
        'counts apply every filter except its own; zero counts are left out. `price`: up to 10 ranges of one round ' +
        'width fitted to the prices of the matching listings in one currency and of one status, never a mix (see `value`).',
    }),
  ),
});

export const MapAnswer = Type.Object({
  clusters: Type.Array(
    Type.Object({
      latitude: Type.Number({ description: 'The centroid of the cluster’s listings, to 6 decimals' }),
      longitude: Type.Number(),
      count: Type.Integer({ minimum: 1 }),
      property_id: Type.Optional(Type.Integer({ description: 'Only in a cluster of one: its listing' })),
    }),
    { maxItems: 500 },
  ),
  total: Type.Integer({ description: 'The matching listings inside the box: the sum of the counts' }),
});
