import type { Kysely, Updateable } from 'kysely';
import { isForeignKeyViolation } from '../../../db/dialect/index.js';
import type { DB, PackagesTable } from '../../../db/schema/index.js';
import { AppError, type FieldError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { fromMinor, minorDigits, percentToBasisPoints, taxOf, toMinor } from '../../../lib/money.js';
import { plainText } from '../../../lib/text.js';
import { nowIso } from '../../../lib/time.js';
import { type PackageRow, toPackage } from './packages.mapper.js';
import * as repository from './packages.repository.js';
import type {
  CreatePackageInput,
  PackageDeletionRecord,
  PackageListRecord,
  PackageRecord,
  PackagesInput,
  UpdatePackageInput,
} from './packages.schemas.js';
import type { Executor } from '../../../db/executor.js';

/** The largest amount an integer column holds: a package's price plus its tax must fit, in minor units. */
const INT4_MAX = 2_147_483_647;

/** ISO 4217 codes the runtime knows (and so can format and give the decimals of). */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export interface PackagesOptions {
  /** DEFAULT_CURRENCY: the currency of a package created without one. */
  defaultCurrency: string;
}

/** Membership packages (docs/api.md 10): the public catalogue and the administrator's management. */
export class PackagesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: PackagesOptions,
  ) {}

  /** Visible packages in list order; administrators may ask for hidden ones too (`include_hidden`). */
  async listPackages(caller: AuthUser | null, query: PackagesInput): Promise<PackageListRecord> {
    if (query.include_hidden && !isAdministrator(caller))
      throw AppError.invalidField('include_hidden', 'payments_rule_administrators_only');
    const rows = await repository.findPackages(this.db, { includeHidden: query.include_hidden === true });
    return { packages: rows.map(toPackage), total_packages: rows.length };
  }

  /** One package; a hidden one is 404 to everyone but administrators. */
  async getPackage(caller: AuthUser | null, id: number): Promise<PackageRecord> {
    const row = await repository.findPackage(this.db, id);
    if (!row || (row.visible !== 1 && !isAdministrator(caller))) throw AppError.notFound();
    return toPackage(row);
  }

  async createPackage(input: CreatePackageInput): Promise<PackageRecord> {
    const currency = (input.currency ?? this.options.defaultCurrency).toUpperCase();
    const problems: FieldError[] = [];
    const title = cleanTitle(input.title, problems);
    const priceMinor = priceInMinor(input.price, currency, problems);
    const taxRateBp = taxRateInBasisPoints(input.tax_rate ?? 0, problems);
    checkTotal(priceMinor, taxRateBp, currency, problems);
    checkRhythm(input.billing_period, input.billing_frequency ?? 1, problems);
    if (problems.length > 0) throw new AppError('validation_failed', 'validation_failed', problems);
    const at = nowIso();
    const row = await repository.insertPackage(this.db, {
      title,
      description: plainText(input.description ?? ''),
      price_minor: priceMinor!,
      currency,
      tax_rate_bp: taxRateBp!,
      listings_included: input.listings_included,
      featured_included: input.featured_included ?? 0,
      billing_period: input.billing_period,
      billing_frequency: input.billing_frequency ?? 1,
      visible: input.visible === false ? 0 : 1,
      popular: input.popular ? 1 : 0,
      sort_order: input.order ?? 0,
      created_at: at,
      updated_at: at,
    });
    return toPackage(row);
  }

  /**
   * Partial update; the rules apply to the package as it will be. A new `currency` without a new `price`
   * keeps the amount (19.99 stays 19.99), which must then suit the new currency's decimals.
   */
  async updatePackage(id: number, input: UpdatePackageInput): Promise<PackageRecord> {
    const row = await this.db.transaction().execute(async (trx) => {
      // Concurrent updates each check the package as the other left it.
      await repository.lockPackage(trx, id);
      const current = await repository.findPackage(trx, id);
      if (!current) throw AppError.notFound();
      return repository.updatePackage(trx, id, { ...packageChanges(current, input), updated_at: nowIso() });
    });
    if (!row) throw AppError.notFound();
    return toPackage(row);
  }

  /**
   * Deletes an unused package; one in use (a membership or an invoice refers to it) is hidden instead, so
   * that its memberships and invoices keep their record.
   */
  async deletePackage(id: number): Promise<PackageDeletionRecord> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await repository.lockPackage(trx, id);
        if (!(await repository.findPackage(trx, id))) throw AppError.notFound();
        if (await repository.isPackageInUse(trx, id)) return this.hide(trx, id);
        await repository.deletePackage(trx, id);
        return { id, deleted: true };
      });
    } catch (error) {
      // A membership met the row's key after the check (memberships.package_id refers to packages).
      if (isForeignKeyViolation(error)) return this.hide(this.db, id);
      throw error;
    }
  }

  private async hide(db: Executor, id: number): Promise<PackageDeletionRecord> {
    await repository.updatePackage(db, id, { visible: 0, updated_at: nowIso() });
    return { id, deleted: false, hidden: true };
  }
}

function isAdministrator(caller: AuthUser | null): boolean {
  return caller?.role === 'administrator';
}

/** The columns an update changes, checked against the package as it will be; a 400 names every bad field. */
function packageChanges(current: PackageRow, input: UpdatePackageInput): Updateable<PackagesTable> {
  const problems: FieldError[] = [];
  const changes: Updateable<PackagesTable> = {};
  if (input.title !== undefined) changes.title = cleanTitle(input.title, problems);
  if (input.description !== undefined) changes.description = plainText(input.description);

  const currency = (input.currency ?? current.currency).toUpperCase();
  let priceMinor: number | undefined = current.price_minor;
  if (input.price !== undefined || currency !== current.currency) {
    priceMinor = priceInMinor(input.price ?? fromMinor(current.price_minor, current.currency), currency, problems);
    changes.price_minor = priceMinor;
    changes.currency = currency;
  }
  let taxRateBp: number | undefined = current.tax_rate_bp;
  if (input.tax_rate !== undefined) taxRateBp = changes.tax_rate_bp = taxRateInBasisPoints(input.tax_rate, problems);
  checkTotal(priceMinor, taxRateBp, currency, problems);

  const period = input.billing_period ?? current.billing_period;
  const frequency = input.billing_frequency ?? current.billing_frequency;
  checkRhythm(period, frequency, problems);
  if (input.billing_period !== undefined) changes.billing_period = input.billing_period;
  if (input.billing_frequency !== undefined) changes.billing_frequency = input.billing_frequency;

  if (input.listings_included !== undefined) changes.listings_included = input.listings_included;
  if (input.featured_included !== undefined) changes.featured_included = input.featured_included;
  if (input.visible !== undefined) changes.visible = input.visible ? 1 : 0;
  if (input.popular !== undefined) changes.popular = input.popular ? 1 : 0;
  if (input.order !== undefined) changes.sort_order = input.order;
  if (problems.length > 0) throw new AppError('validation_failed', 'validation_failed', problems);
  return changes;
}

function cleanTitle(value: string, problems: FieldError[]): string {
  const title = plainText(value);
  if (!title) problems.push({ field: 'title', key: 'package_rule_blank' });
  return title;
}

/** The price in minor units; a problem when the currency is unknown or the price has too many decimals. */
function priceInMinor(price: number, currency: string, problems: FieldError[]): number | undefined {
  if (!CURRENCIES.has(currency)) {
    problems.push({ field: 'currency', key: 'package_rule_currency_unknown' });
    return undefined;
  }
  const minor = toMinor(price, currency);
  if (minor === undefined)
    problems.push({ field: 'price', key: 'package_rule_price_decimals', params: { digits: minorDigits(currency), currency } });
  return minor;
}

function taxRateInBasisPoints(percent: number, problems: FieldError[]): number | undefined {
  const basisPoints = percentToBasisPoints(percent);
  if (basisPoints === undefined) problems.push({ field: 'tax_rate', key: 'package_rule_tax_rate_decimals' });
  return basisPoints;
}

/** Price plus tax must fit the integer columns of invoices (in minor units). */
function checkTotal(priceMinor: number | undefined, taxRateBp: number | undefined, currency: string, problems: FieldError[]): void {
  if (priceMinor === undefined || taxRateBp === undefined) return;
  if (priceMinor + taxOf(priceMinor, taxRateBp) > INT4_MAX)
    problems.push({ field: 'price', key: 'package_rule_price_too_large', params: { currency } });
}

/** A one-time package is bought once: it has no renewal rhythm to multiply. */
function checkRhythm(period: string, frequency: number, problems: FieldError[]): void {
  if (period === 'one_time' && frequency !== 1) problems.push({ field: 'billing_frequency', key: 'package_rule_one_time_frequency' });
}
