import type { Selectable, Transaction, Updateable } from 'kysely';
import type { AgenciesTable, AgentsTable, DB, Taxonomy } from '../../db/schema/index.js';
import { AppError, type FieldError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { sortKey } from '../../lib/slug.js';
import { plainText, richText } from '../../lib/text.js';
import { socialOf } from './directory.mapper.js';
import * as repository from './directory.repository.js';
import type { SocialNetwork, UpdateAgencyInput, UpdateAgentInput } from './directory.schemas.js';

/** The checked, cleaned result of PUT /agents/{id}: columns to write and term lists to replace. */
export interface AgentChanges {
  columns: Updateable<AgentsTable>;
  terms: { taxonomy: Taxonomy; ids: number[] }[];
}

const AGENT_TERM_FIELDS = { category_ids: 'agent_category', city_ids: 'agent_city' } as const satisfies Record<string, Taxonomy>;

/** Fields agents and agencies share, with the same rules. */
type SharedInput = Pick<
  UpdateAgentInput,
  'name' | 'email' | 'phone' | 'mobile' | 'whatsapp' | 'fax' | 'website' | 'license' | 'tax_number'
>;
type SharedColumns = Pick<
  Updateable<AgentsTable>,
  'name' | 'sort_key' | 'email' | 'phone' | 'mobile' | 'whatsapp' | 'fax' | 'website' | 'license' | 'tax_number'
>;
type SocialInput = Partial<Record<SocialNetwork, string | null>>;

/**
 * Checks an agent update in the writing transaction (the agent's row locked): text cleaned, the picture an
 * image of the caller's or the agent's user, category and city ids of their taxonomies, `social` merged into
 * the stored links. All problems of one request are reported together (400).
 */
export async function checkAgentInput(
  trx: Transaction<DB>,
  caller: AuthUser,
  agent: { id: number; userId: number | null },
  input: UpdateAgentInput,
): Promise<AgentChanges> {
  const errors: FieldError[] = [];
  const columns = agentColumns(input, errors);
  if (input.picture_id !== undefined) await checkImage(trx, input.picture_id, [caller.id, agent.userId], 'picture_id', errors);
  if (input.social !== undefined) columns.social = mergeSocial(await repository.findSocial(trx, 'agents', agent.id), input.social);
  const terms = await checkTerms(trx, input, errors);
  if (errors.length > 0) throw new AppError('validation_failed', 'validation_failed', errors);
  return { columns, terms };
}

/** As checkAgentInput, for PUT /agencies/{id}: the description sanitized as listing descriptions are. */
export async function checkAgencyInput(
  trx: Transaction<DB>,
  caller: AuthUser,
  agency: { id: number; userId: number | null },
  input: UpdateAgencyInput,
): Promise<Updateable<AgenciesTable>> {
  const errors: FieldError[] = [];
  const columns = agencyColumns(input, errors);
  if (input.logo_id !== undefined) await checkImage(trx, input.logo_id, [caller.id, agency.userId], 'logo_id', errors);
  if (input.social !== undefined) columns.social = mergeSocial(await repository.findSocial(trx, 'agencies', agency.id), input.social);
  if (errors.length > 0) throw new AppError('validation_failed', 'validation_failed', errors);
  return columns;
}

/**
 * Whether an agent update would change the stored row (`row`): an import's unchanged record then writes nothing,
 * since every write renews the directory's cache stamp. `social` and the terms are not compared: they count as changes.
 */
export function changesAgent(row: Selectable<AgentsTable>, input: UpdateAgentInput): boolean {
  if (input.social !== undefined || input.category_ids !== undefined || input.city_ids !== undefined) return true;
  return changesRow(row, agentColumns(input, []));
}

/** As changesAgent, for an agency. */
export function changesAgency(row: Selectable<AgenciesTable>, input: UpdateAgencyInput): boolean {
  return input.social !== undefined || changesRow(row, agencyColumns(input, []));
}

function changesRow(row: object, columns: object): boolean {
  const stored = row as Record<string, unknown>;
  return Object.entries(columns).some(([column, value]) => {
    const was = stored[column];
    // PostgreSQL returns numeric columns (an agency's latitude) as text.
    return typeof value === 'number' && typeof was === 'string' ? Number(was) !== value : was !== value;
  });
}

/** The columns an agent update writes, its text cleaned: all of them but `social` and the terms, which need the database. */
function agentColumns(input: UpdateAgentInput, errors: FieldError[]): Updateable<AgentsTable> {
  const columns: Updateable<AgentsTable> = sharedColumns(input, errors);
  for (const field of ['position', 'company', 'bio', 'service_areas', 'specialties'] as const) {
    const value = input[field];
    if (value !== undefined) columns[field] = plainText(value);
  }
  if (input.languages !== undefined) columns.languages = JSON.stringify(cleanLanguages(input.languages));
  if (input.visible !== undefined) columns.visible = input.visible ? 1 : 0;
  if (input.picture_id !== undefined) columns.picture_media_id = input.picture_id;
  return columns;
}

/** As agentColumns, for an agency: all of them but `social`. */
function agencyColumns(input: UpdateAgencyInput, errors: FieldError[]): Updateable<AgenciesTable> {
  const columns: Updateable<AgenciesTable> = sharedColumns(input, errors);
  if (input.description !== undefined) columns.description = richText(input.description);
  if (input.address !== undefined) columns.address = plainText(input.address);
  if (input.latitude !== undefined) columns.latitude = input.latitude;
  if (input.longitude !== undefined) columns.longitude = input.longitude;
  if (input.logo_id !== undefined) columns.logo_media_id = input.logo_id;
  return columns;
}

function sharedColumns(input: SharedInput, errors: FieldError[]): SharedColumns {
  const columns: SharedColumns = {};
  if (input.name !== undefined) {
    const name = plainText(input.name);
    if (name === '') errors.push({ field: 'name', key: 'directory_rule_blank_name' });
    columns.name = name;
    columns.sort_key = sortKey(name);
  }
  if (input.email !== undefined) columns.email = input.email.trim().toLowerCase();
  for (const field of ['phone', 'mobile', 'whatsapp', 'fax'] as const) {
    const value = input[field];
    if (value !== undefined) columns[field] = value.trim();
  }
  if (input.website !== undefined) {
    // The schema admits only http(s) URLs; the parser also refuses hosts no browser would open.
    if (input.website !== '' && !URL.canParse(input.website)) errors.push({ field: 'website', key: 'rule_pattern' });
    columns.website = input.website;
  }
  for (const field of ['license', 'tax_number'] as const) {
    const value = input[field];
    if (value !== undefined) columns[field] = plainText(value);
  }
  return columns;
}

/** Names cleaned of tags; blanks dropped, and repeats that differ only in case or accents. */
function cleanLanguages(languages: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const language of languages) {
    const name = plainText(language);
    const key = sortKey(name);
    if (name === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(name);
  }
  return kept;
}

/** The stored links with the given networks replaced (null clears one); every other network stays. */
function mergeSocial(storedJson: string, changes: SocialInput): string {
  const merged: Partial<Record<SocialNetwork, string>> = {};
  for (const [network, url] of Object.entries({ ...socialOf(storedJson), ...changes }) as [SocialNetwork, string | null][]) {
    if (url !== null) merged[network] = url;
  }
  return JSON.stringify(merged);
}

/**
 * A picture or logo must be an image uploaded by one of `owners` (the caller, the record's user). Anyone
 * else's media reads the same as a missing id, so ids of others' uploads are not confirmed.
 */
async function checkImage(
  trx: Transaction<DB>,
  id: number | null,
  owners: readonly (number | null)[],
  field: string,
  errors: FieldError[],
): Promise<void> {
  if (id === null) return;
  const media = await repository.findMedia(trx, id);
  const allowed = media !== undefined && owners.includes(media.owner_id) && media.mime_type.startsWith('image/');
  if (!allowed) errors.push({ field, key: 'directory_rule_image_not_allowed' });
}

async function checkTerms(trx: Transaction<DB>, input: UpdateAgentInput, errors: FieldError[]): Promise<AgentChanges['terms']> {
  const given = (Object.keys(AGENT_TERM_FIELDS) as (keyof typeof AGENT_TERM_FIELDS)[]).filter((field) => input[field] !== undefined);
  const found = new Map(
    (
      await repository.findTermsByIds(
        trx,
        given.flatMap((field) => input[field] ?? []),
      )
    ).map((term) => [term.id, term]),
  );
  return given.map((field) => {
    const taxonomy = AGENT_TERM_FIELDS[field];
    const ids = input[field] ?? [];
    for (const [index, id] of ids.entries()) {
      const term = found.get(id);
      if (!term) errors.push({ field: `${field}.${index}`, key: 'rule_unknown_term' });
      else if (term.taxonomy !== taxonomy) errors.push({ field: `${field}.${index}`, key: 'rule_wrong_taxonomy', params: { taxonomy } });
    }
    return { taxonomy, ids };
  });
}
