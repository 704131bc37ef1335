import type { AccountsServices } from '../modules/accounts/index.js';
import type { AuthServices } from '../modules/auth/index.js';
import type { DirectoryServices } from '../modules/directory/index.js';
import type { ExchangeServices } from '../modules/exchange/index.js';
import type { LeadsServices } from '../modules/leads/index.js';
import type { PropertiesServices } from '../modules/properties/index.js';
import type { ReviewsServices } from '../modules/reviews/index.js';
import type { SavedSearchesServices } from '../modules/saved-searches/index.js';
import type { SearchServices } from '../modules/search/index.js';
import type { TaxonomiesServices } from '../modules/taxonomies/index.js';

/**
 * The module services the website calls, through their faces, as the API's routes do: the site is one more
 * client of the same rules and permissions, with no SQL of its own.
 */
export type SiteServices = Pick<AuthServices, 'auth' | 'passwordReset'> &
  Pick<AccountsServices, 'users'> &
  Pick<PropertiesServices, 'properties' | 'favorites' | 'propertyLists' | 'views' | 'listingSitemap'> &
  Pick<SearchServices, 'search'> &
  Pick<TaxonomiesServices, 'taxonomies'> &
  Pick<DirectoryServices, 'agents' | 'agencies' | 'agentSitemap' | 'agencySitemap'> &
  Pick<LeadsServices, 'leads'> &
  Pick<ReviewsServices, 'reviews'> &
  Pick<SavedSearchesServices, 'savedSearches'> &
  Pick<ExchangeServices, 'redirects'>;
