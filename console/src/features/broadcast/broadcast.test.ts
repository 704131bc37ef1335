import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../i18n/languages';
import { EMPTY_BROADCAST, formToBroadcastBody, retryAllBody } from './broadcast';
import { messages } from './messages';

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

describe('retry all dead', () => {
  it('sends the page’s channel, or nothing for every channel', () => {
    expect(retryAllBody('')).toEqual({});
    expect(retryAllBody('notification_email')).toEqual({ channel: 'notification_email' });
  });

  it('says how many went back to the queue, in each language’s plural forms', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en',
      resources: Object.fromEntries(LANGUAGES.map((language) => [language, { translation: { broadcast: messages[language] } }])),
    });
    const requeued = (lng: Language, count: number) => i18n.t('broadcast.requeued', { lng, count, number: count.toLocaleString(lng) });
    expect(requeued('en', 0)).toBe('No delivery queued again: none was dead.');
    expect(requeued('en', 1)).toBe('One delivery queued again.');
    expect(requeued('en', 2)).toBe('2 deliveries queued again.');
    expect(requeued('en', 1234)).toBe('1,234 deliveries queued again.');
    expect(requeued('fr', 1)).toBe('Un envoi remis en file.');
    expect(requeued('fr', 3)).toBe('3 envois remis en file.');
    expect(requeued('es', 0)).toBe('Ninguna entrega vuelve a la cola: no había ninguna muerta.');
    expect(requeued('es', 7)).toBe('7 entregas vuelven a estar en cola.');
    // A million is Spanish's and French's `many`.
    expect(requeued('es', 1_000_000)).toBe(`${(1_000_000).toLocaleString('es')} entregas vuelven a estar en cola.`);
    expect(requeued('fr', 1_000_000)).toBe(`${(1_000_000).toLocaleString('fr')} envois remis en file.`);
    expect(requeued('ar', 1)).toBe(messages.ar.requeued_one);
    expect(requeued('ar', 2)).toBe(messages.ar.requeued_two);
    // Digits as the runtime writes Arabic numbers (Arabic-Indic or not, by its CLDR data).
    const ar = (count: number) => count.toLocaleString('ar');
    expect(requeued('ar', 0)).toBe(messages.ar.requeued_zero);
    expect(requeued('ar', 3)).toBe(`أُعيد إدراج ${ar(3)} تسليمات في قائمة الانتظار.`);
    expect(requeued('ar', 11)).toBe(`أُعيد إدراج ${ar(11)} تسليمًا في قائمة الانتظار.`);
    expect(requeued('ar', 100)).toBe(`أُعيد إدراج ${ar(100)} تسليم في قائمة الانتظار.`);
  });
});
