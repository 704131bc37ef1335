import { Link } from 'react-router';
import { stars } from '../api/reviews';

/** A rating as five stars for the eye (hidden from screen readers) and `label` ("4 of 5") in text. */
export function ReviewRating({ rating, label }: { rating: number; label: string }) {
  return (
    <>
      <span className="review-stars" aria-hidden="true">
        {stars(rating)}
      </span>{' '}
      <span className="review-rating-text">{label}</span>
    </>
  );
}

/** What a review is about: a link when the console has a page for it, its name otherwise, `unavailable` without one. */
export function ReviewTarget({ title, path, unavailable }: { title: string | null; path: string | null; unavailable: string }) {
  if (title === null) return <span className="muted">{unavailable}</span>;
  const name = <bdi>{title}</bdi>;
  return path ? <Link to={path}>{name}</Link> : name;
}
