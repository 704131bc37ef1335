import { describe, expect, it } from 'vitest';
import { eventKeys, stateKey } from './webhooks';

describe('webhook words', () => {
  it('names the state, and why a disabled endpoint is', () => {
    expect(stateKey({ enabled: true, disabled_reason: null })).toBe('webhooks.state_enabled');
    expect(stateKey({ enabled: false, disabled_reason: 'gone' })).toBe('webhooks.state_disabled_gone');
    expect(stateKey({ enabled: false, disabled_reason: null })).toBe('webhooks.state_disabled_manual');
  });

  it('lists the events in the form’s order, whatever the answer’s', () => {
    expect(eventKeys(['listing.deleted', 'listing.created'])).toEqual(['webhooks.event_listing_created', 'webhooks.event_listing_deleted']);
  });
});
