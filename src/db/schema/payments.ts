import type { Generated } from 'kysely';

/** Packages, memberships, invoices and Stripe events (money in integer minor units: migration 0005). */
export interface PaymentsTables {
  packages: PackagesTable;
  memberships: MembershipsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  stripe_events: StripeEventsTable;
}

export type BillingPeriod = 'day' | 'week' | 'month' | 'year' | 'one_time';

/** Money is integer minor units (`*_minor`), tax rates basis points (`*_bp`): see migration 0005. */
export interface PackagesTable {
  id: Generated<number>;
  title: string;
  description: Generated<string>;
  price_minor: number;
  currency: string;
  tax_rate_bp: Generated<number>;
  /** Null: unlimited. */
  listings_included: number | null;
  featured_included: Generated<number>;
  billing_period: BillingPeriod;
  billing_frequency: Generated<number>;
  visible: Generated<number>;
  popular: Generated<number>;
  sort_order: Generated<number>;
  created_at: string;
  updated_at: string;
}

export type MembershipStatus = 'active' | 'expired' | 'cancelled';

export interface MembershipsTable {
  id: Generated<number>;
  user_id: number;
  package_id: number;
  status: MembershipStatus;
  /** Null: unlimited. */
  remaining_listings: number | null;
  remaining_featured: Generated<number>;
  started_at: string;
  /** Null: a one-time package without an end date. */
  expires_at: string | null;
  auto_renew: Generated<number>;
  stripe_subscription_id: Generated<string | null>;
  expiry_notice_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

interface InvoiceCountersTable {
  year: number;
  last_number: number;
}

export type InvoiceItemType = 'package' | 'listing' | 'featured';

export type InvoiceStatus = 'pending' | 'paid' | 'cancelled' | 'refunded';

export type PaymentMethod = 'stripe' | 'bank_transfer' | 'free';

export interface InvoicesTable {
  id: Generated<number>;
  number: string;
  buyer_id: number | null;
  buyer_name: string;
  buyer_email: string;
  item_type: InvoiceItemType;
  item_id: number;
  item_title: string;
  amount_minor: number;
  tax_minor: number;
  total_minor: number;
  currency: string;
  tax_rate_bp: number;
  status: InvoiceStatus;
  payment_method: PaymentMethod;
  recurring: Generated<number>;
  stripe_session_id: Generated<string | null>;
  stripe_invoice_id: Generated<string | null>;
  stripe_subscription_id: Generated<string | null>;
  archived_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
  paid_at: Generated<string | null>;
}

interface StripeEventsTable {
  id: string;
  type: string;
  received_at: string;
}
