import type { Kysely } from 'kysely';
import type { BillingPeriod, DB } from '../db/schema/index.js';
import { toMinor } from '../lib/money.js';
import { nowIso } from '../lib/time.js';

interface DemoPackage {
  title: string;
  description: string;
  price: number;
  listings: number | null;
  featured: number;
  period: BillingPeriod;
  popular?: boolean;
}

/** Membership packages a portal typically sells (docs/api.md 10), priced in the portal's currency. */
const PACKAGES: readonly DemoPackage[] = [
  { title: 'Starter', description: 'One listing, free, to try the portal.', price: 0, listings: 1, featured: 0, period: 'one_time' },
  {
    title: 'Basic',
    description: 'For private owners: a few listings and one featured spot.',
    price: 19,
    listings: 10,
    featured: 1,
    period: 'month',
  },
  {
    title: 'Professional',
    description: 'For busy agents: more listings and featured spots.',
    price: 49,
    listings: 50,
    featured: 5,
    period: 'month',
    popular: true,
  },
  {
    title: 'Agency',
    description: 'Unlimited listings for a whole agency, billed yearly.',
    price: 399,
    listings: null,
    featured: 25,
    period: 'year',
  },
];

/** The demo packages, when the database has none. Returns how many it created. */
export async function seedDemoPackages(db: Kysely<DB>, currency: string, now = new Date()): Promise<number> {
  const existing = await db.selectFrom('packages').select('id').limit(1).executeTakeFirst();
  if (existing) return 0;
  const at = nowIso(now);
  await db
    .insertInto('packages')
    .values(
      PACKAGES.map((item, order) => ({
        title: item.title,
        description: item.description,
        price_minor: toMinor(item.price, currency) ?? 0,
        currency,
        tax_rate_bp: 0,
        listings_included: item.listings,
        featured_included: item.featured,
        billing_period: item.period,
        billing_frequency: 1,
        visible: 1,
        popular: item.popular ? 1 : 0,
        sort_order: order,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  return PACKAGES.length;
}
