import type { ApiResource } from '../types';

/** The caller's listings: the list of GET /users/my-properties, one, create, update and delete of /properties. */
export const LISTINGS_RESOURCE = 'my-listings';

/** Term listings (docs/api.md 1.2) the form's pickers read: resource name, path and items key. */
export const TERM_RESOURCES = {
  types: { name: 'listings-property-types', list: '/property-types', itemsKey: 'property_types' },
  statuses: { name: 'listings-property-status', list: '/property-status', itemsKey: 'property_status' },
  labels: { name: 'listings-property-labels', list: '/property-labels', itemsKey: 'property_labels' },
  features: { name: 'listings-property-features', list: '/property-features', itemsKey: 'features' },
  countries: { name: 'listings-countries', list: '/property-countries', itemsKey: 'countries' },
  states: { name: 'listings-states', list: '/property-states', itemsKey: 'states' },
  cities: { name: 'listings-cities', list: '/property-cities', itemsKey: 'cities' },
  areas: { name: 'listings-areas', list: '/property-areas', itemsKey: 'areas' },
} as const satisfies Record<string, ApiResource>;

export const AGENTS_RESOURCE = 'listings-agents';

export const RESOURCES: ApiResource[] = [
  {
    name: LISTINGS_RESOURCE,
    list: '/users/my-properties',
    itemsKey: 'properties',
    one: '/properties/:id',
    create: '/properties',
    update: '/properties/:id',
    remove: '/properties/:id',
  },
  ...Object.values(TERM_RESOURCES),
  { name: AGENTS_RESOURCE, list: '/agents', itemsKey: 'agents' },
];
