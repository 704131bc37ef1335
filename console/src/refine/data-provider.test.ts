import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider, fillPath } from './data-provider';

describe('fillPath', () => {
  it('fills every :name placeholder from the params, URL-encoded', () => {
    expect(fillPath('/saved-searches/:id/matches', { id: 12 })).toBe('/saved-searches/12/matches');
    expect(fillPath('/agents/:agent/reviews/:id', { agent: 'a b', id: 3 })).toBe('/agents/a%20b/reviews/3');
    expect(fillPath('/users/invoices', {})).toBe('/users/invoices');
  });

  it('refuses a placeholder without a value rather than calling a wrong address', () => {
    expect(() => fillPath('/agencies/:id/agents', {})).toThrow(/:id/);
    expect(() => fillPath('/agencies/:id/agents', { id: '' })).toThrow(/:id/);
  });
});

describe('createDataProvider', () => {
  const provider = createDataProvider([
    { name: 'matches', list: '/saved-searches/:id/matches', itemsKey: 'properties' },
    { name: 'agents', list: '/agencies/:agency/agents', itemsKey: 'agents', one: '/agencies/:agency/agents/:id' },
  ]);
  const answers: { url: string; signal: AbortSignal | null | undefined }[] = [];
  const envelope = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200 });

  afterEach(() => {
    vi.unstubAllGlobals();
    answers.length = 0;
  });

  it('reads a list whose path holds meta.params, with paging and the abort signal', async () => {
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      answers.push({ url, signal: init.signal });
      return envelope({ properties: [{ id: 1 }], pagination: { total_records: 41 } });
    });
    const controller = new AbortController();
    const answer = await provider.getList({
      resource: 'matches',
      pagination: { currentPage: 2, pageSize: 20 },
      meta: { params: { id: 7 }, signal: controller.signal },
    });
    expect(answer).toEqual({ data: [{ id: 1 }], total: 41 });
    expect(answers).toEqual([{ url: '/realty-api/v1/saved-searches/7/matches?page=2&per_page=20', signal: controller.signal }]);
  });

  it('fills :id and the other placeholders of one record', async () => {
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      answers.push({ url, signal: init.signal });
      return envelope({ id: 5 });
    });
    await provider.getOne({ resource: 'agents', id: 5, meta: { params: { agency: 3 } } });
    expect(answers.map((answer) => answer.url)).toEqual(['/realty-api/v1/agencies/3/agents/5']);
  });

  it('lets an abort through as an abort, not as an HTTP error', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new DOMException('stopped', 'AbortError');
    });
    await expect(provider.getList({ resource: 'matches', meta: { params: { id: 1 } } })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('gives the signal to custom reads only', async () => {
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      answers.push({ url, signal: init.signal });
      return envelope({});
    });
    const controller = new AbortController();
    await provider.custom!({ url: '/stats/listings', method: 'get', meta: { signal: controller.signal } });
    await provider.custom!({ url: '/notifications', method: 'post', payload: {}, meta: { signal: controller.signal } });
    expect(answers.map((answer) => answer.signal)).toEqual([controller.signal, undefined]);
  });
});
