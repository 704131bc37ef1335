import type { BaseRecord, CrudFilter, CrudSort, DataProvider, HttpError, MetaQuery } from '@refinedev/core';
import { api, ApiError, type Pagination, type RequestOptions } from '../api/client';
import type { ApiResource } from '../features/types';

/**
 * Refine's data provider for this API: resources map to paths (features declare them, features/types.ts
 * ApiResource), lists come as `{<items>: [...], pagination}` and give Refine `total_records`; filters with
 * `eq` become query parameters of the same name (the contract's filters are named parameters), the first
 * sorter becomes `sortby` (`meta.sortby` maps field and order to the route's values), `meta.query` adds
 * parameters as they are, `meta.cache` sets the browser cache mode of reads (`no-cache` after a change to data
 * the API lets browsers keep). Paths may hold `:name` placeholders besides `:id`, filled from `meta.params`
 * (e.g. a list at `/saved-searches/:id/matches` read with `meta: { params: { id } }`). React Query's abort
 * signal, which Refine hands over as `meta.signal`, goes to the request: a read no longer wanted (its page
 * closed, a newer query replacing it) stops. Errors become Refine's HttpError with the API's field messages
 * attached; an abort stays an abort.
 */
export function createDataProvider(resources: readonly ApiResource[]): DataProvider {
  const byName = new Map(resources.map((resource) => [resource.name, resource]));
  const resourceOf = (name: string): ApiResource => {
    const resource = byName.get(name);
    if (!resource) throw new Error(`the console declares no API resource "${name}"`);
    return resource;
  };
  const path = (template: string | undefined, name: string, id?: string | number, meta?: MetaQuery): string => {
    if (!template) throw new Error(`resource "${name}" has no such operation`);
    return fillPath(template, { ...paramsOf(meta), ...(id === undefined ? {} : { id }) });
  };
  const call = async <T>(route: string, options: RequestOptions): Promise<T> => {
    try {
      return await api<T>(route, options);
    } catch (error) {
      // A request aborted because React Query no longer wants it: React Query drops it quietly.
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw toHttpError(error);
    }
  };

  return {
    getApiUrl: () => '',
    async getList({ resource, pagination, filters, sorters, meta }) {
      const definition = resourceOf(resource);
      const query: Record<string, string | number | boolean | undefined> = {
        ...filterQuery(filters),
        ...sortQuery(sorters, meta?.sortby as SortMapping | undefined),
        ...(meta?.query as Record<string, string | number | boolean> | undefined),
      };
      if (pagination?.mode !== 'off') {
        query.page = pagination?.currentPage ?? 1;
        query.per_page = pagination?.pageSize ?? 10;
      }
      const data = await call<Record<string, unknown> & { pagination?: Pagination }>(path(definition.list, resource, undefined, meta), {
        query,
        cache: meta?.cache as RequestCache | undefined,
        signal: signalOf(meta),
      });
      const items = (data?.[definition.itemsKey ?? resource] as BaseRecord[] | undefined) ?? [];
      return { data: items as never[], total: data?.pagination?.total_records ?? items.length };
    },
    async getOne({ resource, id, meta }) {
      const route = path(resourceOf(resource).one, resource, id, meta);
      return { data: await call(route, { cache: meta?.cache as RequestCache | undefined, signal: signalOf(meta) }) };
    },
    async create({ resource, variables, meta }) {
      return { data: await call(path(resourceOf(resource).create, resource, undefined, meta), { method: 'POST', body: variables }) };
    },
    async update({ resource, id, variables, meta }) {
      return { data: await call(path(resourceOf(resource).update, resource, id, meta), { method: 'PUT', body: variables }) };
    },
    async deleteOne({ resource, id, meta }) {
      return { data: await call(path(resourceOf(resource).remove, resource, id, meta), { method: 'DELETE' }) };
    },
    async custom({ url, method, payload, query, meta }) {
      const verb = method.toUpperCase() as RequestOptions['method'];
      const options: RequestOptions = { method: verb, body: payload, query: query as RequestOptions['query'] };
      // Only reads take the signal: a change once sent is not abandoned half-way by the page.
      if (verb === 'GET') options.signal = signalOf(meta);
      return { data: await call(url, options) };
    },
  };
}

/**
 * A resource's path with its `:name` placeholders filled (URL-encoded) from `params`: `/agencies/:id/agents`
 * with `{ id: 7 }` is `/agencies/7/agents`. A placeholder without a value is a mistake of the page, said plainly.
 */
export function fillPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`the path ${template} needs a value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

function paramsOf(meta: MetaQuery | undefined): Record<string, string | number> {
  return (meta?.params as Record<string, string | number> | undefined) ?? {};
}

/** React Query's abort signal as Refine passes it in `meta` (reading it tells React Query the read can be aborted). */
function signalOf(meta: MetaQuery | undefined): AbortSignal | undefined {
  const signal: unknown = meta?.signal;
  return signal instanceof AbortSignal ? signal : undefined;
}

/** How a route spells its sort: `(field, order) → sortby value`, e.g. price ascending → `a_price`. */
type SortMapping = (field: string, order: 'asc' | 'desc') => string;

function filterQuery(filters: CrudFilter[] | undefined): Record<string, string> {
  const query: Record<string, string> = {};
  for (const filter of filters ?? []) {
    if (!('field' in filter) || filter.operator !== 'eq') continue;
    if (filter.value === undefined || filter.value === null || filter.value === '') continue;
    query[filter.field] = Array.isArray(filter.value) ? filter.value.join(',') : String(filter.value);
  }
  return query;
}

function sortQuery(sorters: CrudSort[] | undefined, mapping: SortMapping | undefined): Record<string, string> {
  const first = sorters?.[0];
  if (!first) return {};
  return { sortby: mapping ? mapping(first.field, first.order) : `${first.order === 'asc' ? 'a' : 'd'}_${first.field}` };
}

/** Refine's error shape: the status, the API's message, and each field's message for forms. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof ApiError) {
    return {
      statusCode: error.status,
      message: error.message,
      errors: Object.fromEntries(error.fields.map((field) => [field.field, field.message])),
      code: error.code,
    } as HttpError;
  }
  return { statusCode: 0, message: error instanceof Error ? error.message : String(error) };
}
