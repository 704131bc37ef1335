import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { Auth } from '../helpers/factories.js';

export const API = '/realty-api/v1';
export const HOUR_MS = 3600_000;
const LISTING_EVENTS = ['listing.created', 'listing.updated', 'listing.state_changed', 'listing.deleted'];

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What the webhook tests do again and again: call the API as the administrator, make endpoints, run the two jobs.
 * Given getters, since the suite's beforeAll makes the application, the administrator and the receiver.
 */
export function webhookHarness(app: () => TestApp, admin: () => Auth, receiverBase: () => string) {
  const call = (method: Method, url: string, payload?: object, headers: Auth = admin()) =>
    app().app.inject({ method, url: `${API}${url}`, headers, ...(payload === undefined ? {} : { payload }) });
  return {
    call,
    async newEndpoint(path: string, extra: object = {}) {
      const res = await call('POST', '/webhooks', { url: `${receiverBase()}${path}`, events: LISTING_EVENTS, ...extra });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: number; secret: string; enabled: boolean };
    },
    /** Deletes every endpoint, so that each test's endpoints get only its own events. */
    async removeEndpoints() {
      for (const { id } of (await call('GET', '/webhooks')).json().data.webhooks as { id: number }[])
        await call('DELETE', `/webhooks/${id}`);
    },
    /** The follower's runs at `now`: the change log's new entries become events and queued deliveries. */
    async follow(now = new Date()) {
      while (await app().services.webhookEvents.runOnce(now));
    },
    /** Delivery runs at `now` until one attempts nothing (each run sends the next event of every record). */
    async deliverAt(now: Date) {
      for (let run = 0; run < 20; run++) if ((await app().services.webhookDeliverer.runOnce(now)).attempted === 0) return;
      throw new Error('deliveries still due after 20 runs');
    },
    async newListing(title: string) {
      const res = await call('POST', '/properties', { title, price: 250000 });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as number;
    },
  };
}
