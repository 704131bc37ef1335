import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newUser, signIn } from '../helpers/factories.js';
import { errorBody } from '../helpers/expectations.js';
import {
  API,
  aForm,
  type ContactForm,
  mailsOf,
  newAgency,
  newAgent,
  newContactListing,
  newLeadEvent,
  postContact,
  recipientIds,
} from './lead-fixtures.js';

type Auth = Record<string, string>;

describeEachDialect('contact forms (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let author: UserRow;
  let authorAuth: Auth;
  let agentUser: UserRow;
  let agentAuth: Auth;
  let secondAgentUser: UserRow;
  let agencyUser: UserRow;
  let agencyAuth: Auth;
  let agencyId: number;
  /** The agent of `agentUser`, in the agency of `agencyUser`, with an address of its own. */
  let agentId: number;
  /** The agent of `secondAgentUser`, without an address of its own. */
  let secondAgentId: number;
  let buyer: UserRow;
  let buyerAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    author = await newUser(db, { role: 'seller' });
    agentUser = await newUser(db, { role: 'agent', language: 'fr' });
    secondAgentUser = await newUser(db, { role: 'agent' });
    agencyUser = await newUser(db, { role: 'agency', language: 'es' });
    buyer = await newUser(db, { role: 'buyer' });
    agencyId = await newAgency(db, agencyUser, { email: 'office@agency.test', name: 'Sunny Homes' });
    agentId = await newAgent(db, agentUser, { agencyId, email: 'desk@agent.test' });
    secondAgentId = await newAgent(db, secondAgentUser);
    [authorAuth, agentAuth, agencyAuth, buyerAuth] = await Promise.all([
      signIn(t.app, author),
      signIn(t.app, agentUser),
      signIn(t.app, agencyUser),
      signIn(t.app, buyer),
    ]);
  });
  afterAll(() => t.close());

  const expectCreated = (res: LightMyRequestResponse, message = 'Your message was sent.'): number => {
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ success: true, data: { lead_id: expect.any(Number) }, message });
    return res.json().data.lead_id as number;
  };
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };
  const contact = (path: string, form: ContactForm = aForm(), auth: Auth = {}) => postContact(t.app, path, form, auth);
  const listingUrl = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `${API}/properties/${id}`, headers: authorAuth })).json().data.url as string;
  const leadIdsOf = async (auth: Auth) =>
    (
      (await t.app.inject({ method: 'GET', url: `${API}/users/leads?per_page=100`, headers: auth })).json().data.leads as { id: number }[]
    ).map((lead) => lead.id);
  const leadCount = async () =>
    Number(
      (
        await db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('the three targets', () => {
    it('POST /properties/{id}/contact reaches the author of an author_info listing, and nobody else', async () => {
      const listing = await newContactListing(db, author.id, { title: 'Sea view flat' });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([author.id]);
      const res = await t.app.inject({ method: 'GET', url: `${API}/users/leads`, headers: authorAuth });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.leads[0]).toEqual({
        id: leadId,
        target_type: 'property',
        target_id: listing,
        property: { id: listing, title: 'Sea view flat', url: await listingUrl(listing) },
        agent_id: null,
        agency_id: null,
        name: 'Ana Buyer',
        email: 'ana.buyer@example.test',
        phone: '',
        message: 'Is it still available?',
        user_type: 'other',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      });
      for (const auth of [agentAuth, agencyAuth, buyerAuth]) expect(await leadIdsOf(auth)).not.toContain(leadId);
    });

    it('POST /agents/{id}/contact reaches the agent’s user, not its agency’s', async () => {
      const leadId = expectCreated(await contact(`/agents/${agentId}/contact`, aForm({ user_type: 'tenant', phone: '+1 (555) 010-0200' })));
      expect(await recipientIds(db, leadId)).toEqual([agentUser.id]);
      const lead = (await t.app.inject({ method: 'GET', url: `${API}/users/leads`, headers: agentAuth })).json().data.leads[0];
      expect(lead).toMatchObject({
        id: leadId,
        target_type: 'agent',
        target_id: agentId,
        property: null,
        agent_id: agentId,
        agency_id: null,
      });
      expect(lead).toMatchObject({ user_type: 'tenant', phone: '+1 (555) 010-0200' });
      for (const auth of [authorAuth, agencyAuth, buyerAuth]) expect(await leadIdsOf(auth)).not.toContain(leadId);
    });

    it('POST /agencies/{id}/contact reaches the agency’s user, not its agents', async () => {
      const leadId = expectCreated(await contact(`/agencies/${agencyId}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([agencyUser.id]);
      const lead = (await t.app.inject({ method: 'GET', url: `${API}/users/leads`, headers: agencyAuth })).json().data.leads[0];
      expect(lead).toMatchObject({
        id: leadId,
        target_type: 'agency',
        target_id: agencyId,
        property: null,
        agent_id: null,
        agency_id: agencyId,
      });
      for (const auth of [authorAuth, agentAuth, buyerAuth]) expect(await leadIdsOf(auth)).not.toContain(leadId);
    });
  });

  describe('recipients of a listing per agent_display', () => {
    it('agent_info with two agents → both agents’ users, not the author', async () => {
      const listing = await newContactListing(db, author.id, { display: 'agent_info', agentIds: [agentId, secondAgentId] });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([agentUser.id, secondAgentUser.id].sort((a, b) => a - b));
      expect(await leadIdsOf(agentAuth)).toContain(leadId);
      expect(await leadIdsOf(authorAuth)).not.toContain(leadId);
      // Each once, at the agent record's own address, else the account's.
      const mails = await mailsOf(db, leadId);
      expect(mails.map((mail) => [mail.key, mail.to]).sort()).toEqual(
        [
          [`lead:${leadId}:${agentUser.id}`, 'desk@agent.test'],
          [`lead:${leadId}:${secondAgentUser.id}`, secondAgentUser.email],
        ].sort(),
      );
    });

    it('agency_info → the agency’s user, mailed at the agency’s address', async () => {
      const listing = await newContactListing(db, author.id, { display: 'agency_info', agencyId, agentIds: [agentId] });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([agencyUser.id]);
      expect((await mailsOf(db, leadId)).map((mail) => mail.to)).toEqual(['office@agency.test']);
      expect(await leadIdsOf(agentAuth)).not.toContain(leadId);
    });

    it.each(['author_info', 'none'] as const)('%s → the author, mailed at the account’s address', async (display) => {
      const listing = await newContactListing(db, author.id, { display, agencyId, agentIds: [agentId] });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([author.id]);
      expect((await mailsOf(db, leadId)).map((mail) => mail.to)).toEqual([author.email]);
    });

    it('falls back to the author when the listing’s only agent has no account', async () => {
      const orphan = await newAgent(db, null, { email: 'nobody@agent.test' });
      const listing = await newContactListing(db, author.id, { display: 'agent_info', agentIds: [orphan] });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([author.id]);
      expect((await mailsOf(db, leadId)).map((mail) => mail.to)).toEqual([author.email]);
    });

    it('falls back to the author when the agent’s account was deleted', async () => {
      const leaving = await newUser(db, { role: 'agent' });
      const agent = await newAgent(db, leaving);
      const listing = await newContactListing(db, author.id, { display: 'agent_info', agentIds: [agent] });
      await db.deleteFrom('users').where('id', '=', leaving.id).execute();
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([author.id]);
    });

    it('skips an agent without an account when another agent has one', async () => {
      const orphan = await newAgent(db, null);
      const listing = await newContactListing(db, author.id, { display: 'agent_info', agentIds: [orphan, secondAgentId] });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([secondAgentUser.id]);
    });

    it('falls back to the author for agency_info without an agency, and with agent_info without agents', async () => {
      for (const display of ['agency_info', 'agent_info'] as const) {
        const listing = await newContactListing(db, author.id, { display });
        const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
        expect(await recipientIds(db, leadId), display).toEqual([author.id]);
      }
    });

    it('stores the lead without recipients, mail or addressees when nobody has an account left', async () => {
      const listing = await newContactListing(db, null, { display: 'author_info' });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([]);
      expect(await mailsOf(db, leadId)).toEqual([]);
      expect(await newLeadEvent(db, leadId)).toEqual({
        lead_id: leadId,
        target_type: 'property',
        target_id: listing,
        recipient_user_ids: [],
      });

      const orphan = await newAgent(db, null);
      const agentLead = expectCreated(await contact(`/agents/${orphan}/contact`));
      expect(await recipientIds(db, agentLead)).toEqual([]);
      expect(await mailsOf(db, agentLead)).toEqual([]);
    });
  });

  describe('mail and event', () => {
    it('queues one localized mail per recipient with Reply-To the sender, and a new_lead event', async () => {
      const listing = await newContactListing(db, author.id, {
        display: 'agent_info',
        agentIds: [agentId, secondAgentId],
        title: 'Garden house',
      });
      const form = aForm({
        name: 'Zoë Tenant',
        email: 'zoe@example.test',
        phone: '+34 600 000 000',
        message: 'Can I visit\non Monday?',
        user_type: 'tenant',
      });
      // The request asks for Spanish: the agent whose account says French gets French, the other Spanish.
      const res = await t.app.inject({ method: 'POST', url: `${API}/properties/${listing}/contact?lang=es`, payload: form });
      const leadId = expectCreated(res, 'Tu mensaje se envió.');
      const mails = await mailsOf(db, leadId);
      const url = await listingUrl(listing);
      const french = mails.find((mail) => mail.key === `lead:${leadId}:${agentUser.id}`)!;
      const spanish = mails.find((mail) => mail.key === `lead:${leadId}:${secondAgentUser.id}`)!;
      expect(french).toMatchObject({
        to: 'desk@agent.test',
        replyTo: 'zoe@example.test',
        subject: 'Nouvelle demande au sujet de « Garden house »',
      });
      expect(spanish).toMatchObject({
        to: secondAgentUser.email,
        replyTo: 'zoe@example.test',
        subject: 'Nueva consulta sobre «Garden house»',
      });
      for (const text of ['Zoë Tenant', 'zoe@example.test', '+34 600 000 000', 'Locataire', 'Can I visit\non Monday?', url]) {
        expect(french.text).toContain(text);
      }
      expect(spanish.text).toContain('Inquilino');
      expect(await newLeadEvent(db, leadId)).toEqual({
        lead_id: leadId,
        target_type: 'property',
        target_id: listing,
        recipient_user_ids: [agentUser.id, secondAgentUser.id],
      });
    });

    it('names the agent or agency in the subject, in the recipient’s language, else English', async () => {
      const plain = await newUser(db, { role: 'agent' });
      const agent = await newAgent(db, plain);
      const agentLead = expectCreated(await contact(`/agents/${agent}/contact`));
      expect(await mailsOf(db, agentLead)).toEqual([
        {
          key: `lead:${agentLead}:${plain.id}`,
          to: plain.email,
          replyTo: 'ana.buyer@example.test',
          subject: `New inquiry for ${plain.display_name}`,
          text: expect.stringContaining('Phone: not given\nSender type: Other'),
        },
      ]);
      const agencyLead = expectCreated(await contact(`/agencies/${agencyId}/contact`));
      expect((await mailsOf(db, agencyLead))[0]).toMatchObject({ to: 'office@agency.test', subject: 'Nueva consulta para Sunny Homes' });
      expect(await newLeadEvent(db, agencyLead)).toEqual({
        lead_id: agencyLead,
        target_type: 'agency',
        target_id: agencyId,
        recipient_user_ids: [agencyUser.id],
      });
    });

    it('keeps line breaks and control characters of the name out of every header and line', async () => {
      const listing = await newContactListing(db, author.id);
      const name = 'Eve\r\nBcc: victim@example.test\u0007 <b>Smith</b>\u2028';
      const leadId = expectCreated(
        await contact(`/properties/${listing}/contact`, aForm({ name, message: '<script>x</script>Hello\r\nthere\u0007' })),
      );
      const [mail] = await mailsOf(db, leadId);
      expect(mail!.text).toContain('Name: Eve Bcc: victim@example.test Smith\n');
      expect(mail!.text).toContain('xHello\nthere');
      expect(mail!.subject).not.toMatch(/[\r\n]/);
      expect(mail!.replyTo).toBe('ana.buyer@example.test');
      const stored = await db.selectFrom('leads').select(['name', 'message']).where('id', '=', leadId).executeTakeFirstOrThrow();
      expect(stored).toEqual({ name: 'Eve Bcc: victim@example.test Smith', message: 'xHello\nthere' });
      // A NUL is refused outright (docs/api.md 0.2), the same on both databases.
      const nul = await contact(`/properties/${listing}/contact`, aForm({ name: 'Eve\u0000' }));
      expect(nul.statusCode).toBe(400);
      expect(nul.json().errors).toEqual([{ field: 'name', message: 'must not contain a NUL character' }]);
    });

    it('keeps a line break in a listing title out of the subject', async () => {
      const listing = await newContactListing(db, author.id, { title: 'Loft\r\nBcc: x@example.test' });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect((await mailsOf(db, leadId))[0]!.subject).toBe('New inquiry about “Loft Bcc: x@example.test”');
    });
  });

  describe('validation', () => {
    let listing: number;
    beforeAll(async () => {
      listing = await newContactListing(db, author.id);
    });

    it.each([
      ['missing name', { name: undefined }, 'name'],
      ['missing email', { email: undefined }, 'email'],
      ['missing message', { message: undefined }, 'message'],
      ['empty name', { name: '' }, 'name'],
      ['name of tags only', { name: '<b></b>' }, 'name'],
      ['name over 200', { name: 'n'.repeat(201) }, 'name'],
      ['bad email', { email: 'not-an-address' }, 'email'],
      ['email with CR/LF', { email: 'ana@example.test\r\nBcc: victim@example.test' }, 'email'],
      ['email with LF', { email: 'ana@example.test\n' }, 'email'],
      ['email with spaces', { email: 'Ana <ana@example.test>' }, 'email'],
      ['email over 254', { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.test` }, 'email'],
      ['message over 5000', { message: 'm'.repeat(5001) }, 'message'],
      ['empty message', { message: '' }, 'message'],
      ['message of white space', { message: ' \n\t ' }, 'message'],
      ['bad user_type', { user_type: 'landlord' }, 'user_type'],
      ['phone with letters', { phone: 'call me' }, 'phone'],
      ['phone with a line break', { phone: '555\r\n1234' }, 'phone'],
      ['phone over 50', { phone: '1'.repeat(51) }, 'phone'],
      ['unknown field', { subject: 'Hi' }, 'subject'],
      ['mass assignment of the sender', { sender_user_id: 1 }, 'sender_user_id'],
      ['mass assignment of a recipient', { recipient_user_ids: [1] }, 'recipient_user_ids'],
      ['number as name', { name: 42 }, 'name'],
    ])('%s → 400 naming the field, nothing stored', async (_case, overrides, field) => {
      const form = { ...aForm(), ...overrides } as Record<string, unknown>;
      for (const [key, value] of Object.entries(form)) if (value === undefined) delete form[key];
      const before = await leadCount();
      const res = await contact(`/properties/${listing}/contact`, form);
      expectError(res, 400, 'validation_failed');
      expect(res.json().errors.map((error: { field: string }) => error.field)).toContain(field);
      expect(await leadCount()).toBe(before);
    });

    it('accepts a maximal message, an empty phone and every user_type', async () => {
      expectCreated(await contact(`/properties/${listing}/contact`, aForm({ message: 'm'.repeat(5000), phone: '' })));
      for (const userType of ['buyer', 'tenant', 'agent', 'other']) {
        const leadId = expectCreated(await contact(`/properties/${listing}/contact`, aForm({ user_type: userType })));
        expect((await db.selectFrom('leads').select('user_type').where('id', '=', leadId).executeTakeFirstOrThrow()).user_type).toBe(
          userType,
        );
      }
    });

    it('refuses a non-numeric or zero id with 400, and a JSON body that is not an object', async () => {
      expectError(await contact('/properties/abc/contact'), 400, 'validation_failed');
      expectError(await contact('/agents/0/contact'), 400, 'validation_failed');
      expectError(await postContact(t.app, `/agencies/${agencyId}/contact`, ['a']), 400, 'validation_failed');
    });
  });

  describe('visibility of the target', () => {
    it.each(['pending', 'draft', 'disapproved', 'expired', 'on_hold'] as const)(
      'a %s listing is 404 to strangers, nothing stored',
      async (status) => {
        const listing = await newContactListing(db, author.id, { status });
        const before = await leadCount();
        expectError(await contact(`/properties/${listing}/contact`), 404, 'not_found');
        expectError(await contact(`/properties/${listing}/contact`, aForm(), buyerAuth), 404, 'not_found');
        expect(await leadCount()).toBe(before);
      },
    );

    it('a hidden listing is contactable by its owner', async () => {
      const listing = await newContactListing(db, author.id, { status: 'pending' });
      expectCreated(await contact(`/properties/${listing}/contact`, aForm(), authorAuth));
    });

    it('a sold listing → 201', async () => {
      const listing = await newContactListing(db, author.id, { status: 'sold' });
      const leadId = expectCreated(await contact(`/properties/${listing}/contact`));
      expect(await recipientIds(db, leadId)).toEqual([author.id]);
    });

    it('a hidden agent is 404 to the public, contactable by its agency', async () => {
      const shy = await newAgent(db, await newUser(db, { role: 'agent' }), { agencyId, visible: false });
      expectError(await contact(`/agents/${shy}/contact`), 404, 'not_found');
      expectError(await contact(`/agents/${shy}/contact`, aForm(), buyerAuth), 404, 'not_found');
      expectCreated(await contact(`/agents/${shy}/contact`, aForm(), agencyAuth));
    });

    it('unknown ids → 404 on all three routes', async () => {
      for (const path of ['/properties/999999/contact', '/agents/999999/contact', '/agencies/999999/contact']) {
        expectError(await contact(path), 404, 'not_found');
      }
    });
  });

  describe('the sender', () => {
    it('remembers the signed-in sender, and nobody for an anonymous one', async () => {
      const listing = await newContactListing(db, author.id);
      const signedIn = expectCreated(await contact(`/properties/${listing}/contact`, aForm(), buyerAuth));
      const anonymous = expectCreated(await contact(`/properties/${listing}/contact`));
      const senders = await db
        .selectFrom('leads')
        .select(['id', 'sender_user_id'])
        .where('id', 'in', [signedIn, anonymous])
        .orderBy('id')
        .execute();
      expect(senders).toEqual([
        { id: signedIn, sender_user_id: buyer.id },
        { id: anonymous, sender_user_id: null },
      ]);
      // The lead does not show in the sender's own list: it is addressed to the author.
      expect(await leadIdsOf(buyerAuth)).not.toContain(signedIn);
    });

    it('refuses an invalid bearer token with 401 even though the route is public', async () => {
      const listing = await newContactListing(db, author.id);
      expectError(await contact(`/properties/${listing}/contact`, aForm(), bearer('not.a.token')), 401, 'invalid_token');
    });
  });

  it('documents the routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    for (const path of [
      '/realty-api/v1/properties/{id}/contact',
      '/realty-api/v1/agents/{id}/contact',
      '/realty-api/v1/agencies/{id}/contact',
    ]) {
      const operation = doc.paths[path].post;
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.description).toContain('no mail is sent');
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '404', '429']));
    }
    expect(doc.paths['/realty-api/v1/properties/{id}/contact'].post.description).toContain('agency_info');
    expect(doc.paths['/realty-api/v1/users/leads'].get.responses['200']).toBeDefined();
    expect(doc.components.schemas.Lead).toBeDefined();
  });
});
