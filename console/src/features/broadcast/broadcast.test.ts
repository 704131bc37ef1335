import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_BROADCAST, formToBroadcastBody, retryAllDead } from './broadcast';

describe('broadcast body', () => {
  it('names exactly one target', () => {
    const base = { ...EMPTY_BROADCAST, title: ' Maintenance ', message: ' Tonight 22:00 ' };
    expect(formToBroadcastBody(base)).toEqual({ title: 'Maintenance', message: 'Tonight 22:00', type: 'system', all: true });
    expect(formToBroadcastBody({ ...base, target: 'role', role: 'agent', user_id: '5' })).toEqual({
      title: 'Maintenance',
      message: 'Tonight 22:00',
      type: 'system',
      role: 'agent',
    });
    expect(formToBroadcastBody({ ...base, target: 'user', user_id: ' 57 ', type: 'new_lead' })).toMatchObject({
      user_id: 57,
      type: 'new_lead',
    });
  });
});

describe('retryAllDead', () => {
  it('retries every dead message once, across pages, and ends when nothing new is dead', async () => {
    const dead = new Set([1, 2, 3, 4, 5]);
    const retried: number[] = [];
    const result = await retryAllDead(
      async (page) => ({ items: [...dead].slice((page - 1) * 2, page * 2).map((id) => ({ id })), hasNext: dead.size > page * 2 }),
      async (id) => {
        retried.push(id);
        dead.delete(id);
      },
    );
    expect(result).toEqual({ retried: 5, failed: 0 });
    expect(retried).toEqual([1, 2, 3, 4, 5]);
  });

  it('property: ends, and retries each id at most once, even when messages die again at once or refuse', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        async (ids, pageSize, dieAgain) => {
          const dead = new Set(ids);
          const counts = new Map<number, number>();
          const result = await retryAllDead(
            async (page) => ({
              items: [...dead].slice((page - 1) * pageSize, page * pageSize).map((id) => ({ id })),
              hasNext: dead.size > page * pageSize,
            }),
            async (id) => {
              counts.set(id, (counts.get(id) ?? 0) + 1);
              if (id % 7 === 0) throw new Error('409');
              if (!dieAgain) dead.delete(id);
            },
          );
          for (const count of counts.values()) expect(count).toBe(1);
          expect(result.retried + result.failed).toBe(counts.size);
          // Every message that was dead at the start was tried.
          expect(counts.size).toBe(ids.length);
        },
      ),
    );
  });
});
