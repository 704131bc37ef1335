import { type Static, type TSchema, Type } from 'typebox';
import type { BillingPeriod } from '../../../db/schema/index.js';

const INT4_MAX = 2_147_483_647;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const BILLING_PERIODS = ['day', 'week', 'month', 'year', 'one_time'] as const satisfies readonly BillingPeriod[];

/** The most characters of a package's title and description. */
const MAX_TITLE_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 5_000;

/** A membership package (docs/api.md 10). Money in major units of `currency` (19.99), `tax_rate` a percentage (20). */
export const Package = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: Type.String({ description: 'Plain text; "" when none' }),
    price: Type.Number({ description: 'Before tax, in major units of `currency` (19.99)' }),
    currency: Type.String({ description: 'ISO 4217' }),
    tax_rate: Type.Number({ description: 'A percentage (20 = 20 %)' }),
    total_price: Type.Number({ description: '`price` plus its tax (rounded half up to the currency’s smallest unit)' }),
    formatted_price: Type.String({
      description:
        'Display text of `total_price` with its billing rhythm, in English: "$119.88 / year", "$30 / 3 months", ' +
        '"$49" for `one_time`. Whole units unless the amount has a fraction, then all of the currency’s decimals.',
    }),
    listings_included: Nullable(Type.Integer({ description: 'Listings the package lets its buyer publish; null = unlimited' })),
    featured_included: Type.Integer({ description: 'Listings the buyer may feature' }),
    billing_period: Type.Enum([...BILLING_PERIODS]),
    billing_frequency: Type.Integer({ description: 'Periods per renewal (3 with `month` = every 3 months); 1 for `one_time`' }),
    visible: Type.Boolean({ description: 'Hidden packages are 404 to everyone but administrators and cannot be bought' }),
    popular: Type.Boolean({ description: 'Highlighted by clients' }),
    order: Type.Integer({ description: 'Position in the list (ascending; ties by id)' }),
  },
  { $id: 'Package', title: 'Package' },
);
export type PackageRecord = Static<typeof Package>;

export const PackageIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) }, { additionalProperties: false });

export const PackagesQuery = Type.Object(
  {
    include_hidden: Type.Optional(
      Type.Boolean({ description: 'Administrators only (`true`/`false`, default false): list hidden packages too. Others → 400' }),
    ),
  },
  { additionalProperties: false },
);
export type PackagesInput = Static<typeof PackagesQuery>;

export const PackageList = Type.Object({ packages: Type.Array(Type.Ref('Package')), total_packages: Type.Integer() });
export interface PackageListRecord {
  packages: PackageRecord[];
  total_packages: number;
}

const PLAIN_TEXT = 'Plain text: HTML tags are removed, white space trimmed';

/** Every field an administrator may set; the create body requires some, the update body none. */
const packageFields = {
  title: Type.String({ minLength: 1, maxLength: MAX_TITLE_LENGTH, description: PLAIN_TEXT }),
  description: Type.String({ maxLength: MAX_DESCRIPTION_LENGTH, description: `${PLAIN_TEXT}. Default ""` }),
  price: Type.Number({
    minimum: 0,
    maximum: 1_000_000_000,
    description: 'Before tax, in major units; at most as many decimals as the currency has (USD 2, JPY 0, KWD 3), else 400',
  }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code (default DEFAULT_CURRENCY); stored upper-case' }),
  tax_rate: Type.Number({ minimum: 0, maximum: 100, description: 'A percentage with at most two decimals (default 0)' }),
  listings_included: Nullable(Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'null = unlimited' })),
  featured_included: Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'Default 0' }),
  billing_period: Type.Enum([...BILLING_PERIODS]),
  billing_frequency: Type.Integer({ minimum: 1, maximum: 365, description: 'Default 1; must be 1 for `one_time`' }),
  visible: Type.Boolean({ description: 'Default true' }),
  popular: Type.Boolean({ description: 'Default false' }),
  order: Type.Integer({ minimum: -INT4_MAX, maximum: INT4_MAX, description: 'Default 0' }),
};

export const CreatePackageBody = Type.Object(
  {
    title: packageFields.title,
    description: Type.Optional(packageFields.description),
    price: packageFields.price,
    currency: Type.Optional(packageFields.currency),
    tax_rate: Type.Optional(packageFields.tax_rate),
    listings_included: packageFields.listings_included,
    featured_included: Type.Optional(packageFields.featured_included),
    billing_period: packageFields.billing_period,
    billing_frequency: Type.Optional(packageFields.billing_frequency),
    visible: Type.Optional(packageFields.visible),
    popular: Type.Optional(packageFields.popular),
    order: Type.Optional(packageFields.order),
  },
  { additionalProperties: false },
);
export type CreatePackageInput = Static<typeof CreatePackageBody>;

export const UpdatePackageBody = Type.Object(
  {
    title: Type.Optional(packageFields.title),
    description: Type.Optional(packageFields.description),
    price: Type.Optional(packageFields.price),
    currency: Type.Optional(packageFields.currency),
    tax_rate: Type.Optional(packageFields.tax_rate),
    listings_included: Type.Optional(packageFields.listings_included),
    featured_included: Type.Optional(packageFields.featured_included),
    billing_period: Type.Optional(packageFields.billing_period),
    billing_frequency: Type.Optional(packageFields.billing_frequency),
    visible: Type.Optional(packageFields.visible),
    popular: Type.Optional(packageFields.popular),
    order: Type.Optional(packageFields.order),
  },
  { additionalProperties: false },
);
export type UpdatePackageInput = Static<typeof UpdatePackageBody>;

export const PackageDeletion = Type.Object({
  id: Type.Integer(),
  deleted: Type.Boolean({ description: 'False when the package is in use and was hidden instead' }),
  hidden: Type.Optional(Type.Literal(true, { description: 'Present (true) when the package was hidden instead of deleted' })),
});
export type PackageDeletionRecord = Static<typeof PackageDeletion>;
