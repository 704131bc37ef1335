import type { Generated } from 'kysely';

/** Reviews with their reactions, and leads. */
export interface ReviewsLeadsTables {
  reviews: ReviewsTable;
  review_reactions: ReviewReactionsTable;
  leads: LeadsTable;
  lead_recipients: LeadRecipientsTable;
}

export type ReviewTarget = 'property' | 'agent' | 'agency';

export type Reaction = 'like' | 'dislike';

interface ReviewsTable {
  id: Generated<number>;
  target_type: ReviewTarget;
  target_id: number;
  /** Null once the author's account is deleted. */
  author_id: number | null;
  rating: number;
  title: Generated<string>;
  content: string;
  created_at: string;
  updated_at: string;
}

interface ReviewReactionsTable {
  review_id: number;
  user_id: number;
  reaction: Reaction;
  created_at: string;
}

export type LeadTarget = 'property' | 'agent' | 'agency';

interface LeadsTable {
  id: Generated<number>;
  target_type: LeadTarget;
  property_id: number | null;
  agent_id: number | null;
  agency_id: number | null;
  sender_user_id: number | null;
  name: string;
  email: string;
  phone: Generated<string>;
  message: string;
  user_type: Generated<string>;
  created_at: string;
}

interface LeadRecipientsTable {
  lead_id: number;
  user_id: number;
}
