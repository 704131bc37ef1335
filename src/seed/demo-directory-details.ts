import type { Kysely } from 'kysely';
import type { FileStorage } from '../adapters/storage/storage.js';
import type { DB } from '../db/schema/index.js';
import { pick, type Random, shuffle } from '../lib/random.js';
import { slugify } from '../lib/slug.js';
import { nowIso } from '../lib/time.js';
import { logoSvg, portraitSvg } from './demo-badges.js';
import type { DemoAgent } from './demo-directory.js';
import { type StoredPicture, storeSvg } from './demo-images.js';
import { aggregateOf, draftReviews, type DemoReview, type ReviewSubject } from './demo-reviews.js';
import { DEMO_CITIES } from './demo-places.js';
import { AGENT_CATEGORIES } from './demo-terms.js';

/**
 * The details of the demo agencies and agents beyond what registration fills (docs/api.md 5.1): descriptions,
 * contact lines, logos and portraits, languages, categories and cities, and their reviews. Written once:
 * a record that already has its description or bio is left as it is.
 */

export interface DirectoryDetailsInput {
  agencyId: number;
  agencyUserId: number;
  name: string;
  domain: string;
  referencePrefix: string;
  states: readonly string[];
  phonePrefix: string;
  agents: readonly DemoAgent[];
}

const POSITIONS = ['Managing Broker', 'Senior Agent', 'Sales Associate', 'Leasing Specialist', 'Buyer’s Agent', 'Listing Agent'];
const LANGUAGES_BY_COUNTRY: Record<string, readonly string[]> = {
  'United States': ['English', 'Spanish'],
  Spain: ['Spanish', 'English', 'Catalan'],
  France: ['French', 'English'],
  'United Arab Emirates': ['Arabic', 'English', 'Hindi'],
};
const AGENT_REVIEWS: readonly [number, number] = [2, 6];
const AGENCY_REVIEWS: readonly [number, number] = [3, 8];

/** Whether the agency has no details yet (its description is written with them). */
export async function needsDirectoryDetails(db: Kysely<DB>, agency: DirectoryDetailsInput): Promise<boolean> {
  const existing = await db.selectFrom('agencies').select('description').where('id', '=', agency.agencyId).executeTakeFirstOrThrow();
  return existing.description === '';
}

/** The agency's logo and its agents' portraits, in the order of `agency.agents`. */
export interface DirectoryPictures {
  logo: StoredPicture;
  portraits: StoredPicture[];
}

/** Renders and stores the agency's logo and its agents' portraits (no database work). */
export async function renderDirectoryPictures(storage: FileStorage, agency: DirectoryDetailsInput, now: Date): Promise<DirectoryPictures> {
  const [logo, ...portraits] = await Promise.all([
    storeSvg(logoSvg(agency.name), storage, now),
    ...agency.agents.map((agent) => storeSvg(portraitSvg(agent.name), storage, now)),
  ]);
  return { logo: logo!, portraits };
}

/** Writes the agency's and its agents' details, pictures (rendered by `renderDirectoryPictures`) and reviews. */
export async function writeDirectoryDetails(
  db: Kysely<DB>,
  random: Random,
  agency: DirectoryDetailsInput,
  { logo, portraits }: DirectoryPictures,
  reviewerIds: readonly number[],
  now: Date,
): Promise<void> {
  const cities = DEMO_CITIES.filter((city) => agency.states.includes(city.state));
  const head = cities[0]!;
  const languages = LANGUAGES_BY_COUNTRY[head.country] ?? ['English'];
  const agentCityIds = await termIdsByName(
    db,
    'agent_city',
    cities.map((city) => city.city),
  );
  const categoryIds = await termIdsByName(db, 'agent_category', AGENT_CATEGORIES);
  const social = (handle: string) =>
    JSON.stringify({
      facebook: `https://www.facebook.com/${handle}`,
      instagram: `https://www.instagram.com/${handle}`,
      linkedin: `https://www.linkedin.com/company/${handle}`,
    });

  await db.transaction().execute(async (trx) => {
    const reviews = draftReviews(random, 'agency', between(random, AGENCY_REVIEWS), reviewerIds, yearBefore(now), now);
    await trx
      .updateTable('agencies')
      .set({
        description:
          `<p>${agency.name} helps buyers, sellers and tenants in ${cities.map((city) => city.city).join(', ')}. ` +
          'Our agents know every street of the neighbourhoods they work in and guide you from the first viewing to the keys.</p>',
        mobile: `${agency.phonePrefix}99`,
        whatsapp: `${agency.phonePrefix}98`,
        website: `https://www.${agency.domain}`,
        license: `${agency.referencePrefix}-LIC-${String(agency.agencyId).padStart(5, '0')}`,
        tax_number: `${agency.referencePrefix}${String(100_000 + agency.agencyId * 7919).slice(-6)}`,
        address: `${head.city}, ${head.state}, ${head.country}`,
        latitude: head.latitude,
        longitude: head.longitude,
        social: social(slugify(agency.name)),
        logo_media_id: await insertPicture(trx, agency.agencyUserId, logo, `${agency.name} logo`, now),
        ...aggregateOf(reviews),
        updated_at: nowIso(now),
      })
      .where('id', '=', agency.agencyId)
      .execute();
    await insertReviews(trx, 'agency', agency.agencyId, reviews);

    for (const [index, agent] of agency.agents.entries()) {
      const agentReviews = draftReviews(random, 'agent', between(random, AGENT_REVIEWS), reviewerIds, yearBefore(now), now);
      const categories = shuffle([...categoryIds], random).slice(0, 1 + Math.floor(random() * 2));
      const first = agent.name.split(' ')[0]!;
      await trx
        .updateTable('agents')
        .set({
          position: POSITIONS[index % POSITIONS.length]!,
          company: agency.name,
          bio: `${first} has worked with ${agency.name} for ${2 + Math.floor(random() * 15)} years and speaks ${languages.join(', ')}.`,
          mobile: `${agency.phonePrefix}${String(50 + index).padStart(2, '0')}`,
          whatsapp: `${agency.phonePrefix}${String(50 + index).padStart(2, '0')}`,
          website: `https://www.${agency.domain}/agents/${slugify(agent.name)}`,
          license: `${agency.referencePrefix}-AG-${String(agent.agentId).padStart(5, '0')}`,
          languages: JSON.stringify(languages.slice(0, 1 + Math.floor(random() * languages.length))),
          service_areas: cities.map((city) => city.city).join(', '),
          specialties: pick(['First-time buyers', 'Investment property', 'Relocation', 'New developments', 'Luxury homes'], random),
          social: JSON.stringify({ linkedin: `https://www.linkedin.com/in/${slugify(agent.name)}` }),
          picture_media_id: await insertPicture(trx, agent.userId, portraits[index]!, agent.name, now),
          ...aggregateOf(agentReviews),
          updated_at: nowIso(now),
        })
        .where('id', '=', agent.agentId)
        .execute();
      const terms = [
        ...categories.map((id) => ({ id, taxonomy: 'agent_category' as const })),
        ...agentCityIds.map((id) => ({ id, taxonomy: 'agent_city' as const })),
      ];
      if (terms.length > 0) {
        await trx
          .insertInto('agent_terms')
          .values(terms.map((term, position) => ({ agent_id: agent.agentId, term_id: term.id, taxonomy: term.taxonomy, position })))
          .execute();
      }
      await insertReviews(trx, 'agent', agent.agentId, agentReviews);
    }
  });
}

/** Reviews of one subject; the caller has set the subject's aggregate. */
async function insertReviews(db: Kysely<DB>, subject: ReviewSubject, targetId: number, reviews: readonly DemoReview[]): Promise<void> {
  if (reviews.length === 0) return;
  await db
    .insertInto('reviews')
    .values(
      reviews.map((review) => ({
        target_type: subject,
        target_id: targetId,
        author_id: review.authorId,
        rating: review.rating,
        title: review.title,
        content: review.content,
        created_at: review.createdAt,
        updated_at: review.createdAt,
      })),
    )
    .execute();
}

async function insertPicture(db: Kysely<DB>, ownerId: number, picture: StoredPicture, title: string, now: Date): Promise<number> {
  const row = await db
    .insertInto('media')
    .values({
      owner_id: ownerId,
      listing_id: null,
      storage_key: picture.storageKey,
      mime_type: picture.mimeType,
      width: picture.width,
      height: picture.height,
      size_bytes: picture.sizeBytes,
      title,
      alt: title,
      sizes: picture.sizes,
      created_at: nowIso(now),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function termIdsByName(db: Kysely<DB>, taxonomy: 'agent_category' | 'agent_city', names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', taxonomy)
    .where('name', 'in', names)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

function between(random: Random, [least, most]: readonly [number, number]): number {
  return least + Math.floor(random() * (most - least + 1));
}

function yearBefore(now: Date): Date {
  return new Date(now.getTime() - 365 * 86_400_000);
}
