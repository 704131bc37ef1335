/**
 * What a machine client may call (docs/machine-clients.md): each scope grants a fixed list of routes, named by
 * method and pattern under `/realty-api/v1`. A route in no scope is refused to every client (403), whatever
 * the client's creator may do: signing in, accounts' own settings, payments and notifications are a person's.
 * test/api-clients/client-scopes.test.ts checks that every route of the API is either here or in
 * `NOT_FOR_CLIENTS`, so a new route is a decision, not an accident.
 */
export const CLIENT_SCOPES = {
  'listings:read':
    'Read listings (the moderation queue and history included), their pictures and reviews, terms, agents, agencies and listing statistics',
  'listings:write': 'Create, change, move between states and delete listings; upload and change pictures; write terms',
  'directory:write': 'Change agents’ and agencies’ profiles and an agency’s agents',
  'leads:read': 'Read the leads (contact requests) of the site',
  'reviews:moderate': 'Approve, reject and delete reviews',
  'users:read': 'Read user accounts',
  'webhooks:manage': 'Make and manage webhook endpoints; the client owns the endpoints it makes and sees only those',
  'exports:read': 'Export listings and manage portal feed tokens',
  'imports:write': 'Start imports, manage feed sources, read import runs and old addresses’ redirects',
  'payments:read': 'Read packages, invoices and revenue statistics',
} as const;

export type ClientScope = keyof typeof CLIENT_SCOPES;
export const CLIENT_SCOPE_NAMES = Object.keys(CLIENT_SCOPES) as ClientScope[];

const ROUTES_BY_SCOPE: Record<ClientScope, readonly string[]> = {
  'listings:read': [
    ...['types', 'features', 'status', 'labels', 'countries', 'states', 'cities', 'areas'].map((list) => `GET /property-${list}`),
    'GET /terms/:taxonomy/:id',
    'GET /properties',
    'GET /properties/search',
    'GET /properties/search/map',
    'GET /properties/:id',
    'GET /properties/:id/media',
    'GET /properties/:id/similar',
    'GET /properties/:id/history',
    'GET /properties/:id/reviews',
    'GET /properties/moderation',
    'GET /users/my-properties',
    'GET /media',
    'GET /media/:id',
    'GET /agents',
    'GET /agents/search',
    'GET /agents/agent-categories',
    'GET /agents/agent-cities',
    'GET /agents/:id',
    'GET /agents/:id/properties',
    'GET /agents/:id/reviews',
    'GET /agencies',
    'GET /agencies/:id',
    'GET /agencies/:id/agents',
    'GET /agencies/:id/properties',
    'GET /agencies/:id/reviews',
    'GET /site-settings',
    'GET /stats/listings',
    'GET /stats/activity',
  ],
  'listings:write': [
    'POST /properties',
    'POST /properties/with-media',
    'PUT /properties/:id',
    'DELETE /properties/:id',
    'POST /media/upload',
    'PUT /media/:id',
    'DELETE /media/:id',
    ...['approve', 'disapprove', 'hold', 'live', 'mark-sold'].map((move) => `POST /users/${move}-property/:id`),
    'POST /users/property-actions',
    'POST /terms/:taxonomy',
    'PUT /terms/:taxonomy/:id',
    'DELETE /terms/:taxonomy/:id',
  ],
  'directory:write': ['PUT /agents/:id', 'PUT /agencies/:id', 'POST /agencies/:id/agents', 'DELETE /agencies/:id/agents/:agent_id'],
  'leads:read': ['GET /users/leads'],
  'reviews:moderate': ['POST /reviews/:id/action', 'DELETE /reviews/:id'],
  'users:read': ['GET /users', 'GET /users/:id'],
  'webhooks:manage': [
    'GET /webhooks',
    'POST /webhooks',
    'GET /webhooks/:id',
    'PATCH /webhooks/:id',
    'DELETE /webhooks/:id',
    'POST /webhooks/:id/rotate-secret',
    'POST /webhooks/:id/test',
    'GET /webhooks/:id/deliveries',
    'POST /webhooks/:id/deliveries/:delivery_id/retry',
    'POST /webhooks/:id/replay',
  ],
  'exports:read': ['GET /exports/:format', 'GET /exports/tokens', 'POST /exports/tokens', 'DELETE /exports/tokens/:id'],
  'imports:write': [
    'GET /imports',
    'POST /imports',
    'GET /imports/:id',
    'GET /imports/sources',
    'POST /imports/sources',
    'PATCH /imports/sources/:id',
    'DELETE /imports/sources/:id',
    'GET /redirects',
    'DELETE /redirects/:id',
  ],
  'payments:read': [
    'GET /payments/settings',
    'GET /payments/packages',
    'GET /payments/packages/:id',
    'GET /users/invoices',
    'GET /users/invoices/:invoice_id',
    'GET /stats/revenue',
  ],
};

/**
 * Routes no client credential opens, each group for its reason. Without a credential the public ones still
 * answer as they do to anyone.
 */
export const NOT_FOR_CLIENTS: readonly string[] = [
  // A person's sign-in: a client has its own (POST /oauth/token).
  ...['login', 'register', 'token', 'validate-token', 'logout', 'reset-password', 'reset-password/confirm'].map(
    (path) => `POST /auth/${path}`,
  ),
  'POST /setup/administrator',
  'GET /social/config',
  'POST /social/google/login',
  'POST /social/facebook/login',
  // The creator's own account, favourites, saved searches and notifications.
  'GET /users/me',
  'PUT /users/profile',
  'DELETE /users/delete-profile',
  'POST /users/upload-avatar',
  'POST /favorite-property/:id',
  'GET /users/favorite-properties',
  'GET /saved-searches',
  'POST /saved-searches',
  'GET /users/saved-searches',
  'GET /saved-searches/:id',
  'PUT /saved-searches/:id',
  'DELETE /saved-searches/:id',
  'DELETE /users/saved-searches/:id',
  'GET /saved-searches/:id/matches',
  ...['', '/unread-count', '/preferences', '/deliveries', '/stream'].map((path) => `GET /notifications${path}`),
  'POST /notifications',
  'PUT /notifications/preferences',
  'POST /notifications/mark-all-read',
  'POST /notifications/:id/read',
  'DELETE /notifications/:id',
  'POST /notifications/register-device',
  'POST /notifications/unregister-device',
  'POST /notifications/deliveries/retry',
  'POST /notifications/deliveries/:id/retry',
  'GET /notifications/unsubscribe',
  'POST /notifications/unsubscribe',
  // Managing accounts: a person's decision, with the console's confirmations.
  'DELETE /users/:id',
  'PUT /users/:id/role',
  'PUT /users/:id/status',
  // What visitors write: a client relaying them would sign them with the administrator's account.
  'POST /properties/:id/contact',
  'POST /agents/:id/contact',
  'POST /agencies/:id/contact',
  'POST /properties/:id/reviews',
  'POST /agents/:id/reviews',
  'POST /agencies/:id/reviews',
  'GET /users/reviews',
  'GET /users/reviews-received',
  // Money and the site's settings.
  'POST /payments/packages',
  'PUT /payments/packages/:id',
  'DELETE /payments/packages/:id',
  'POST /users/invoices/:invoice_id/mark-paid',
  'DELETE /users/invoices/:invoice_id',
  'GET /membership/package',
  'POST /membership/cancel',
  'GET /users/package',
  'POST /payments/checkout',
  'PUT /site-settings',
  // The switch that pauses every endpoint's deliveries, not only the client's own.
  'GET /webhooks/settings',
  'PUT /webhooks/settings',
  // Machine clients themselves: a client never manages clients.
  'GET /api-clients',
  'POST /api-clients',
  'GET /api-clients/:id',
  'PATCH /api-clients/:id',
  'DELETE /api-clients/:id',
  'POST /api-clients/:id/rotate-secret',
  'POST /api-clients/:id/revoke',
  // Routes that read a credential of their own kind and no bearer token (`auth: 'own'`).
  'POST /oauth/token',
  'GET /feeds/:token',
  'POST /payments/webhooks/stripe',
];

const SCOPE_OF_ROUTE = new Map<string, ClientScope>(
  Object.entries(ROUTES_BY_SCOPE).flatMap(([scope, routes]) => routes.map((route) => [route, scope as ClientScope] as const)),
);

/** Every route a scope grants, `METHOD /pattern` (the OpenAPI document lists each operation's scope from this). */
export function routesOfScopes(): ReadonlyMap<string, ClientScope> {
  return SCOPE_OF_ROUTE;
}

/** Routes every client may call, whatever its scopes: the API's own description. */
const OPEN_TO_CLIENTS = new Set(['GET /openapi.json']);

/**
 * Whether a client with `scopes` may call `method` `pattern` (a HEAD is its GET), and if not, the scope it
 * lacks (undefined when no scope would do).
 */
export function clientMayCall(
  method: string,
  pattern: string,
  scopes: ReadonlySet<ClientScope>,
): { allowed: true } | { allowed: false; needs: ClientScope | undefined } {
  const route = `${method === 'HEAD' ? 'GET' : method} ${pattern}`;
  if (OPEN_TO_CLIENTS.has(route)) return { allowed: true };
  const needs = SCOPE_OF_ROUTE.get(route);
  return needs !== undefined && scopes.has(needs) ? { allowed: true } : { allowed: false, needs };
}
