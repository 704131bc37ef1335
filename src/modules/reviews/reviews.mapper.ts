import type { FileStorage } from '../../adapters/storage/storage.js';
import type { Reaction } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import { avatarUrl } from '../media/index.js';
import type { ReactionCounts, ReviewRow } from './reviews.repository.js';
import type { ReviewRecord } from './reviews.schemas.js';

const NO_REACTIONS: ReactionCounts = { likes: 0, dislikes: 0 };

/**
 * The review record (docs/api.md 6.1). `deletedAuthorName` is shown, localized, for a review whose author's
 * account is gone.
 */
export function toReview(
  row: ReviewRow,
  reactions: ReactionCounts | undefined,
  myReaction: Reaction | null,
  storage: FileStorage,
  deletedAuthorName: string,
): ReviewRecord {
  const { likes, dislikes } = reactions ?? NO_REACTIONS;
  return {
    id: row.id,
    target_type: row.target_type,
    target_id: row.target_id,
    rating: row.rating,
    title: row.title,
    content: row.content,
    likes,
    dislikes,
    my_reaction: myReaction,
    author:
      row.author_id === null
        ? { id: null, display_name: deletedAuthorName, avatar_url: null }
        : {
            id: row.author_id,
            display_name: row.author_display_name ?? '',
            avatar_url: avatarUrl(row.author_avatar_sizes, storage) || null,
          },
    created_at: toApiTimestamp(row.created_at),
  };
}
