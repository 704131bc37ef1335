import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { changeLogHead } from '../../src/db/change-log.js';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { FEED_FORMATS, type ImportOptions, type ImportSummary } from '../../src/modules/exchange/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgency, newAgent, newUser } from '../helpers/factories.js';

/** A RESO feed of one office, its two members and their listings, as an MLS sends it: offices and members first. */
const OFFICE = {
  OfficeKey: 'O1',
  OfficeName: 'Sol Realty',
  OfficeEmail: 'office@sol.example',
  OfficePhone: '+34 952 100 100',
  OfficeAddress1: 'Calle Larios 1, Málaga',
  X_Realty_Website: 'https://sol.example',
};
const PIA = {
  MemberKey: 'M1',
  MemberFirstName: 'Pia',
  MemberLastName: 'Soto',
  MemberEmail: 'pia@sol.example',
  MemberDirectPhone: '+34 952 100 101',
  MemberMobilePhone: '+34 600 100 101',
  JobTitle: 'Broker',
  OfficeKey: 'O1',
};
const LEO = { MemberKey: 'M2', MemberFullName: 'Leo Marín', MemberEmail: 'leo@sol.example', OfficeKey: 'O1' };
const PORT = {
  ListingKey: 'P1',
  X_Realty_Title: 'Townhouse near the port',
  StandardStatus: 'Active',
  ListPrice: 350000,
  ListAgentKey: 'M1',
  CoListAgentKey: 'M2',
  ListOfficeKey: 'O1',
};
const BEACH = { ListingKey: 'P2', X_Realty_Title: 'Flat by the beach', StandardStatus: 'Active', ListPrice: 200000, ListAgentKey: 'M2' };

function resoFeed(Office: object[], Member: object[], Property: object[]): string {
  return JSON.stringify({ '@reso.context': 'urn:reso:metadata:2.0:resource:property', Office, Member, Property });
}

const FEED = resoFeed([OFFICE], [PIA, LEO], [PORT, BEACH]);

interface Site {
  t: TestApp;
  db: Kysely<DB>;
  admin: UserRow;
}

async function importFeed(site: Site, text: string, options: Partial<ImportOptions> = {}): Promise<ImportSummary> {
  return site.t.services.feedImporter.run(FEED_FORMATS.reso.read(Readable.from([Buffer.from(text)])), {
    source: 'mls',
    actorId: site.admin.id,
    ...options,
  });
}

/** Everything an import could write to: accounts, directory records, listings, the change log and the cache stamps. */
async function snapshot(db: Kysely<DB>) {
  return {
    users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
    agents: await db.selectFrom('agents').selectAll().orderBy('id').execute(),
    agencies: await db.selectFrom('agencies').selectAll().orderBy('id').execute(),
    listings: await db.selectFrom('listings').select(['id', 'updated_at']).orderBy('id').execute(),
    stamps: await db.selectFrom('cache_versions').selectAll().orderBy('name').execute(),
    head: await changeLogHead(db),
  };
}

async function listingIdOf(db: Kysely<DB>, key: string): Promise<number> {
  const row = await db.selectFrom('listing_sources').select('listing_id').where('source_key', '=', key).executeTakeFirstOrThrow();
  return row.listing_id;
}

async function agentIdOf(db: Kysely<DB>, email: string): Promise<number> {
  return (await db.selectFrom('agents').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

describeEachDialect('a RESO feed’s members and offices (%s)', (dialect) => {
  let site: Site;

  async function newSite(): Promise<Site> {
    const t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example' });
    site = { t, db: t.database.db, admin: await newUser(t.database.db, { role: 'administrator' }) };
    return site;
  }

  afterEach(() => site?.t.close());

  it('makes the agency and agents of an empty site, as accounts without passwords, and its listings show them', async () => {
    const { t, db } = await newSite();
    const summary = await importFeed(site, FEED);
    expect(summary).toMatchObject({ read: 5, created: 2, rejected: 0, agentsCreated: 2, agenciesCreated: 1 });
    const accounts = await db
      .selectFrom('users')
      .select(['email', 'role', 'password_hash'])
      .where('email', 'like', '%@sol.example')
      .orderBy('email')
      .execute();
    expect(accounts).toEqual([
      { email: 'leo@sol.example', role: 'agent', password_hash: null },
      { email: 'office@sol.example', role: 'agency', password_hash: null },
      { email: 'pia@sol.example', role: 'agent', password_hash: null },
    ]);

    const { body } = await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${await listingIdOf(db, 'P1')}` });
    const port = JSON.parse(body).data;
    expect(port.agents.map((agent: { name: string }) => agent.name)).toEqual(['Pia Soto', 'Leo Marín']);
    expect(port.agency?.name).toBe('Sol Realty');
    const beach = (await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${await listingIdOf(db, 'P2')}` })).json().data;
    expect(beach.agents.map((agent: { name: string }) => agent.name)).toEqual(['Leo Marín']);

    const pia = (await t.app.inject({ method: 'GET', url: `/realty-api/v1/agents/${await agentIdOf(db, 'pia@sol.example')}` })).json().data;
    expect(pia).toMatchObject({
      name: 'Pia Soto',
      email: 'pia@sol.example',
      phone: '+34 952 100 101',
      mobile: '+34 600 100 101',
      position: 'Broker',
      agency: { name: 'Sol Realty' },
    });
    const agency = (await t.app.inject({ method: 'GET', url: `/realty-api/v1/agencies/${port.agency.id}` })).json().data;
    expect(agency).toMatchObject({
      name: 'Sol Realty',
      email: 'office@sol.example',
      phone: '+34 952 100 100',
      website: 'https://sol.example',
      address: 'Calle Larios 1, Málaga',
      agents_count: 2,
    });
  });

  it('imports the same feed again without writing anything; a changed member updates that agent only', async () => {
    const { db } = await newSite();
    await importFeed(site, FEED);
    const before = await snapshot(db);
    expect(await importFeed(site, FEED)).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
      rejected: 0,
      agentsCreated: 0,
      agenciesCreated: 0,
    });
    expect(await snapshot(db)).toEqual(before);

    const moved = resoFeed([OFFICE], [PIA, { ...LEO, MemberMobilePhone: '+34 600 100 102' }], [PORT, BEACH]);
    expect(await importFeed(site, moved)).toMatchObject({ unchanged: 2, agentsCreated: 0, agenciesCreated: 0 });
    const after = await snapshot(db);
    expect(after.users).toEqual(before.users);
    expect(after.agencies).toEqual(before.agencies);
    expect(after.listings).toEqual(before.listings);
    const changed = after.agents.filter((agent, n) => JSON.stringify(agent) !== JSON.stringify(before.agents[n]));
    expect(changed).toMatchObject([{ email: 'leo@sol.example', mobile: '+34 600 100 102' }]);
  });

  it('a dry run counts the agents and agencies it would make and writes nothing', async () => {
    const { db } = await newSite();
    const before = await snapshot(db);
    const summary = await importFeed(site, FEED, { dryRun: true });
    expect(summary).toMatchObject({ dryRun: true, created: 2, rejected: 0, agentsCreated: 2, agenciesCreated: 1 });
    expect(await snapshot(db)).toEqual(before);
  });

  it('rejects a member without an e-mail or with a field the API refuses, at its place, and the listings naming it', async () => {
    const { db } = await newSite();
    const { MemberEmail: _none, ...withoutEmail } = LEO;
    const badPhone = { ...LEO, MemberKey: 'M3', MemberEmail: 'max@sol.example', MemberDirectPhone: 'call me' };
    // An office the feed leaves out makes no agency, and costs the agent only its agency.
    const elsewhere = { ...LEO, MemberKey: 'M4', MemberEmail: 'eva@sol.example', OfficeKey: 'O9' };
    const listings = [
      { ...PORT, CoListAgentKey: null },
      BEACH,
      { ...BEACH, ListingKey: 'P3', ListAgentKey: 'M3' },
      { ...BEACH, ListingKey: 'P4', ListAgentKey: 'M4' },
    ];
    const summary = await importFeed(site, resoFeed([OFFICE], [PIA, withoutEmail, badPhone, elsewhere], listings));
    expect(summary).toMatchObject({ created: 2, rejected: 4, agentsCreated: 2 });
    const unknownAgent = [{ field: 'agents.0', reason: 'does not name an agent here (by the feed’s key, e-mail or id)' }];
    expect(summary.rejections).toEqual([
      { at: 'Member[1]', key: 'M2', errors: [{ field: 'email', reason: 'is required: accounts are matched and signed in by e-mail' }] },
      { at: 'Member[2]', key: 'M3', errors: [{ field: 'phone', reason: 'has an invalid format' }] },
      { at: 'Property[1]', key: 'P2', errors: unknownAgent },
      { at: 'Property[2]', key: 'P3', errors: unknownAgent },
    ]);
    // A rejected record changes nothing: no account for the member whose phone was refused.
    expect(await db.selectFrom('users').select('id').where('email', '=', 'max@sol.example').execute()).toEqual([]);
    const eva = await db
      .selectFrom('agents')
      .select(['name', 'agency_id'])
      .where('email', '=', 'eva@sol.example')
      .executeTakeFirstOrThrow();
    expect(eva).toEqual({ name: 'Leo Marín', agency_id: null });
  });

  it('--strict stops at a rejected member, keeping the listings before it and making none of the members after it', async () => {
    const { db } = await newSite();
    const { MemberEmail: _none, ...withoutEmail } = LEO;
    const feed = JSON.stringify({ Office: [OFFICE], Property: [{ ...BEACH, ListAgentKey: null }], Member: [withoutEmail, PIA] });
    const summary = await importFeed(site, feed, { strict: true });
    expect(summary).toMatchObject({ created: 1, rejected: 1, stopped: true, agentsCreated: 0, agenciesCreated: 1 });
    expect(summary.rejections.map((rejection) => rejection.at)).toEqual(['Member[0]']);
    expect(await db.selectFrom('agents').select('id').execute()).toEqual([]);
  });

  it('never makes an agent or agency of an owner’s or an administrator’s account, nor changes the account', async () => {
    const { db, admin } = await newSite();
    const owner = await newUser(db, { role: 'owner', email: 'olga@sol.example' });
    const accounts = () => db.selectFrom('users').selectAll().where('id', 'in', [owner.id, admin.id]).orderBy('id').execute();
    const before = await accounts();
    const feed = resoFeed(
      [{ ...OFFICE, OfficeEmail: admin.email }],
      [
        { ...PIA, MemberEmail: 'Olga@Sol.Example', OfficeKey: null },
        { ...LEO, MemberEmail: admin.email.toUpperCase(), OfficeKey: null },
      ],
      [{ ...PORT, CoListAgentKey: null, ListOfficeKey: null }],
    );
    const summary = await importFeed(site, feed);
    const notAgent = 'is the e-mail of an account here that is not an agent’s, and an import never changes a role';
    expect(summary).toMatchObject({ created: 0, rejected: 4, agentsCreated: 0, agenciesCreated: 0 });
    expect(summary.rejections).toEqual([
      {
        at: 'Office[0]',
        key: 'O1',
        errors: [
          { field: 'email', reason: 'is the e-mail of an account here that is not an agency’s, and an import never changes a role' },
        ],
      },
      { at: 'Member[0]', key: 'M1', errors: [{ field: 'email', reason: notAgent }] },
      { at: 'Member[1]', key: 'M2', errors: [{ field: 'email', reason: notAgent }] },
      {
        at: 'Property[0]',
        key: 'P1',
        errors: [{ field: 'agents.0', reason: 'does not name an agent here (by the feed’s key, e-mail or id)' }],
      },
    ]);
    expect(await accounts()).toEqual(before);
    expect(await db.selectFrom('agents').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('agencies').select('id').execute()).toEqual([]);
  });

  it('finds an agent by its e-mail in another case, updates its details and moves it to the feed’s office', async () => {
    const { db } = await newSite();
    const user = await newUser(db, { role: 'agent', email: 'pia@sol.example' });
    const elsewhere = await newAgency(db, { name: 'Old Office' });
    const piaId = await newAgent(db, { user_id: user.id, name: 'Pia S.', email: 'pia@sol.example', phone: '1', agency_id: elsewhere });
    const summary = await importFeed(site, resoFeed([OFFICE], [{ ...PIA, MemberEmail: 'PIA@Sol.Example' }, LEO], [PORT]));
    expect(summary).toMatchObject({ created: 1, rejected: 0, agentsCreated: 1, agenciesCreated: 1 });
    const pia = await db
      .selectFrom('agents')
      .innerJoin('agencies', 'agencies.id', 'agents.agency_id')
      .selectAll('agents')
      .select('agencies.name as agency')
      .where('agents.id', '=', piaId)
      .executeTakeFirstOrThrow();
    expect(pia).toMatchObject({
      name: 'Pia Soto',
      email: 'pia@sol.example',
      phone: '+34 952 100 101',
      position: 'Broker',
      agency: 'Sol Realty',
    });
    // Her account is as it was: no second account, the same role and password.
    expect(await db.selectFrom('users').selectAll().where('email', 'like', 'pia@%').execute()).toEqual([user]);
    const named = await db
      .selectFrom('listing_agents')
      .select('agent_id')
      .where('listing_id', '=', await listingIdOf(db, 'P1'))
      .orderBy('position')
      .execute();
    expect(named.map((row) => row.agent_id)).toEqual([piaId, await agentIdOf(db, 'leo@sol.example')]);
  });

  it('reads a key that names no member as the feed’s own, never as the id of an agent or agency here', async () => {
    const { db } = await newSite();
    const agencyId = await newAgency(db, { name: 'Local Realty' });
    const agentId = await newAgent(db, { name: 'Local Agent', agency_id: agencyId });
    const stale = { ...BEACH, ListAgentKey: String(agentId), ListOfficeKey: String(agencyId) };
    const summary = await importFeed(site, resoFeed([], [], [stale]));
    expect(summary).toMatchObject({ created: 0, rejected: 1 });
    expect(summary.rejections[0]!.errors.map((error) => error.field)).toEqual(['agents.0', 'agency']);
  });
});
