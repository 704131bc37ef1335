/** The security schemes of machine clients (modules/api-clients; docs/machine-clients.md), beside a person's `bearer`. */
export function clientSecuritySchemes(tokenUrl: string, scopes: Readonly<Record<string, string>>) {
  return {
    oauth2: {
      type: 'oauth2' as const,
      description: 'A machine client’s short-lived access token (`rat_…`) from the client-credentials grant',
      flows: { clientCredentials: { tokenUrl, scopes: { ...scopes } } },
    },
    clientKey: {
      type: 'http' as const,
      scheme: 'bearer',
      description: 'A machine client’s secret (`rak_…`) sent as the bearer token itself, with all of the client’s scopes',
    },
    clientBasic: {
      type: 'http' as const,
      scheme: 'basic',
      description: 'A machine client’s `client_id` and `client_secret` (RFC 6749 2.3.1)',
    },
  };
}

interface ScopedOperation {
  security?: Record<string, string[]>[];
  'x-client-scope'?: string;
}

/**
 * Names, on each operation a machine client may call, the scope that opens it (`x-client-scope`) and, where the
 * operation asks for a bearer token, the client schemes beside it. `scopeOf` takes `METHOD /pattern` under
 * `/realty-api/v1`, patterns written the router's way (`/properties/:id`).
 */
export function markClientScopes<T extends { paths?: Record<string, Record<string, ScopedOperation>> }>(
  document: T,
  scopeOf: (route: string) => string | undefined,
): T {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const pattern = path.replace(/^.*?\/realty-api\/v1(?=\/|$)/, '').replace(/\{([^}]+)\}/g, ':$1');
    for (const [method, operation] of Object.entries(operations)) {
      const scope = scopeOf(`${method.toUpperCase()} ${pattern}`);
      if (scope === undefined) continue;
      operation['x-client-scope'] = scope;
      // A new list: routes share one `security` array, which @fastify/swagger hands on as it is.
      if (operation.security?.some((requirement) => 'bearer' in requirement)) {
        operation.security = [...operation.security, { oauth2: [scope] }, { clientKey: [] }];
      }
    }
  }
  return document;
}
