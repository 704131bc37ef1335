import type { NewListing } from '../db/schema/index.js';
import { pick, type Random } from '../lib/random.js';

/**
 * Demo reviews: what visitors write about listings, agents and agencies, drawn from a few sentences per
 * rating. Ratings lean positive, as on real portals. Each target is reviewed by distinct reviewers (one
 * review per user and target, docs/api.md 6.1).
 */

export interface DemoReview {
  authorId: number;
  rating: number;
  title: string;
  content: string;
  createdAt: string;
}

export type ReviewSubject = 'property' | 'agent' | 'agency';

/** Share of each rating, 1 to 5 stars. */
const RATING_WEIGHTS = [0.04, 0.06, 0.15, 0.35, 0.4];
const DAY_MS = 86_400_000;

const TEXTS: Record<ReviewSubject, Record<'low' | 'mid' | 'high', readonly (readonly [title: string, content: string])[]>> = {
  property: {
    low: [
      ['Not as advertised', 'The rooms are much smaller than the pictures suggest and the street is noisy at night.'],
      ['Needs work', 'The kitchen and bathroom need a full renovation; the price does not reflect that.'],
    ],
    mid: [
      ['Decent, with caveats', 'Good layout and light, but the building’s common areas are tired.'],
      ['Fair for the area', 'Nothing special, but the location is practical and the price is in line with the neighbourhood.'],
    ],
    high: [
      ['Even better in person', 'Bright, quiet and exactly as described. The viewing was easy to arrange.'],
      ['Great location', 'Everything is within walking distance and the place has been looked after with care.'],
      ['Lovely home', 'Well-kept, generous rooms and a calm neighbourhood. Highly recommended.'],
    ],
  },
  agent: {
    low: [
      ['Hard to reach', 'Calls and messages went unanswered for days.'],
      ['Disappointing', 'Viewings were cancelled at short notice more than once.'],
    ],
    mid: [
      ['Helpful enough', 'Knew the listings well, though the follow-up was slow.'],
      ['Professional', 'Answered our questions, but we had to push to get documents.'],
    ],
    high: [
      ['Knows the market', 'Gave us honest advice on prices and negotiated well on our behalf.'],
      ['Responsive and patient', 'Answered every question quickly and never pushed us to decide.'],
      ['Made it easy', 'Organised every viewing and guided us through the paperwork.'],
    ],
  },
  agency: {
    low: [
      ['Poor communication', 'Nobody seemed to know who was handling our file.'],
      ['Slow', 'It took weeks to get a simple answer about the deposit.'],
    ],
    mid: [
      ['Average service', 'The team was friendly, but the process could be better organised.'],
      ['Good listings, slow office', 'They have interesting properties; the paperwork took longer than promised.'],
    ],
    high: [
      ['Excellent team', 'Friendly, well organised and transparent from the first viewing to the keys.'],
      ['Highly recommended', 'They found us the right place within a month and handled everything smoothly.'],
      ['Trustworthy', 'Clear fees, clear contracts and good advice throughout.'],
    ],
  },
};

/**
 * `count` reviews of one subject by distinct reviewers, dated between `since` and `now`. Fewer when there
 * are not enough reviewers.
 */
export function draftReviews(
  random: Random,
  subject: ReviewSubject,
  count: number,
  reviewerIds: readonly number[],
  since: Date,
  now: Date,
): DemoReview[] {
  const reviewers = [...reviewerIds];
  const reviews: DemoReview[] = [];
  for (let i = 0; i < count && reviewers.length > 0; i++) {
    const authorId = reviewers.splice(Math.floor(random() * reviewers.length), 1)[0]!;
    const rating = ratingOf(random);
    const [title, content] = pick(TEXTS[subject][rating <= 2 ? 'low' : rating === 3 ? 'mid' : 'high'], random);
    const at = since.getTime() + random() * Math.max(0, now.getTime() - since.getTime());
    reviews.push({ authorId, rating, title, content, createdAt: new Date(Math.floor(at / 1000) * 1000).toISOString() });
  }
  return reviews;
}

/** The stored aggregate of a subject's reviews: the sum of ratings and their count. */
export function aggregateOf(reviews: readonly DemoReview[]): { rating_sum: number; reviews_count: number } {
  return { rating_sum: reviews.reduce((total, review) => total + review.rating, 0), reviews_count: reviews.length };
}

/** Up to a year back from `now`, not before `notBefore`. */
function reviewWindow(now: Date, notBefore: string | null): Date {
  const yearAgo = now.getTime() - 365 * DAY_MS;
  return new Date(Math.max(yearAgo, notBefore ? Date.parse(notBefore) : yearAgo));
}

function ratingOf(random: Random): number {
  let draw = random();
  for (const [index, weight] of RATING_WEIGHTS.entries()) {
    draw -= weight;
    if (draw < 0) return index + 1;
  }
  return 5;
}

/** Share of public listings with reviews, and how many each gets at most. */
const REVIEWED_SHARE = 0.15;
const MOST_REVIEWS = 4;

/** Reviews for some public listings (the bulk writer puts their aggregate on the row: docs/api.md 6.1). */
export function listingReviews(random: Random, row: NewListing, reviewers: readonly number[], now: Date): DemoReview[] {
  const reviewed = (row.status === 'publish' || row.status === 'sold') && random() < REVIEWED_SHARE;
  return reviewed
    ? draftReviews(random, 'property', 1 + Math.floor(random() * MOST_REVIEWS), reviewers, reviewWindow(now, row.published_at ?? null), now)
    : [];
}
