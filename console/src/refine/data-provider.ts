import type { BaseRecord, CrudFilter, CrudSort, DataProvider, HttpError } from '@refinedev/core';
import { api, ApiError, type Pagination, type RequestOptions } from '../api/client';
import type { ApiResource } from '../features/types';

/**
 * Refine's data provider for this API: resources map to paths (features declare them, features/types.ts
 * ApiResource), lists come as `{<items>: [...], pagination}` and give Refine `total_records`; filters with
 * `eq` become query parameters of the same name (the contract's filters are named parameters), the first
 * sorter becomes `sortby` (`meta.sortby` maps field and order to the route's values), `meta.query` adds
 * parameters as they are, `meta.cache` sets the browser cache mode of reads (`no-cache` after a change to data
 * the API lets browsers keep). Errors become Refine's HttpError with the API's field messages attached.
 */
export function createDataProvider(resources: readonly ApiResource[]): DataProvider {
  const byName = new Map(resources.map((resource) => [resource.name, resource]));
  const resourceOf = (name: string): ApiResource => {
    const resource = byName.get(name);
    if (!resource) throw new Error(`the console declares no API resource "${name}"`);
    return resource;
  };
  const path = (template: string | undefined, name: string, id?: string | number): string => {
    if (!template) throw new Error(`resource "${name}" has no such operation`);
    return id === undefined ? template : template.replace(':id', encodeURIComponent(String(id)));
  };
  const call = async <T>(route: string, options: RequestOptions): Promise<T> => {
    try {
      return await api<T>(route, options);
    } catch (error) {
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
      const data = await call<Record<string, unknown> & { pagination?: Pagination }>(path(definition.list, resource), {
        query,
        cache: meta?.cache as RequestCache | undefined,
      });
      const items = (data?.[definition.itemsKey ?? resource] as BaseRecord[] | undefined) ?? [];
      return { data: items as never[], total: data?.pagination?.total_records ?? items.length };
    },
    async getOne({ resource, id, meta }) {
      return { data: await call(path(resourceOf(resource).one, resource, id), { cache: meta?.cache as RequestCache | undefined }) };
    },
    async create({ resource, variables }) {
      return { data: await call(path(resourceOf(resource).create, resource), { method: 'POST', body: variables }) };
    },
    async update({ resource, id, variables }) {
      return { data: await call(path(resourceOf(resource).update, resource, id), { method: 'PUT', body: variables }) };
    },
    async deleteOne({ resource, id }) {
      return { data: await call(path(resourceOf(resource).remove, resource, id), { method: 'DELETE' }) };
    },
    async custom({ url, method, payload, query }) {
      const verb = method.toUpperCase() as RequestOptions['method'];
      return { data: await call(url, { method: verb, body: payload, query: query as RequestOptions['query'] }) };
    },
  };
}

/** How a route spells its sort: `(field, order) → sortby value`, e.g. price ascending → `a_price`. */
export type SortMapping = (field: string, order: 'asc' | 'desc') => string;

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
