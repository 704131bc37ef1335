/** The API's records Explore reads (docs/api.md 4.1, 4.4, 4.5), as the OpenAPI document types them. */
import type { AnswerData, Schemas } from '@realty-api/client';

export type Media = Schemas['Media'];

/** A search result: the listing record without description, floor plans and additional features. */
export type ListingSummary = Schemas['PropertySummary'];

/** GET /properties/{id}: the whole record. */
export type Listing = Schemas['Property'];

/** GET /properties/search with `facets`. */
export type SearchAnswer = AnswerData<'/realty-api/v1/properties/search', 'get'>;

/** GET /properties/search/map. */
export type ClusterAnswer = AnswerData<'/realty-api/v1/properties/search/map', 'get'>;

export type Cluster = ClusterAnswer['clusters'][number];
