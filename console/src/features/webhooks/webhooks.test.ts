import { describe, expect, it } from 'vitest';
import { eventKeys, pauseKey, recordKey, stateKey } from './webhooks';

describe('webhook words', () => {
  it('names the state, and why a disabled endpoint is', () => {
    expect(stateKey({ enabled: true, disabled_reason: null })).toBe('webhooks.state_enabled');
    expect(stateKey({ enabled: false, disabled_reason: 'gone' })).toBe('webhooks.state_disabled_gone');
    expect(stateKey({ enabled: false, disabled_reason: null })).toBe('webhooks.state_disabled_manual');
  });

  it('lists the events in the form’s order, whatever the answer’s', () => {
    expect(eventKeys(['listing.deleted', 'listing.created'])).toEqual(['webhooks.event_listing_created', 'webhooks.event_listing_deleted']);
    expect(eventKeys(['invoice.paid', 'lead.created'])).toEqual(['webhooks.event_lead_created', 'webhooks.event_invoice_paid']);
  });

  it('names a delivery’s record by its type, and the sending switch by what holds it', () => {
    expect(recordKey({ type: 'membership' })).toBe('webhooks.record_membership');
    expect(pauseKey({ deliveries_paused: false, paused_by_environment: false })).toBe('webhooks.running_state');
    expect(pauseKey({ deliveries_paused: true, paused_by_environment: false })).toBe('webhooks.paused_state');
    expect(pauseKey({ deliveries_paused: true, paused_by_environment: true })).toBe('webhooks.paused_by_environment');
  });
});
