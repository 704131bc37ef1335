import { CsrfField } from '../../components/Form.js';
import type { PageContext } from '../../page.js';
import { withQuery } from '../../paths.js';
import { fill } from '../../texts.js';
import { listingText } from './listing.text.js';

/**
 * What a visitor can do with the listing besides contacting: keep it (favourite), compare it, share it. Every one
 * works without JavaScript: a form that posts and comes back, plain links.
 */

/**
 * The favourite button: a form posting to /favorites/{id} with the state it asks for. Anonymous pages are shared
 * by every visitor, so theirs always offers to save (the post sends them to sign in); a signed-in visitor's page
 * is their own and shows the listing's state for them.
 */
export function FavoriteButton({
  ctx,
  listingId,
  isFavorite,
  back,
}: {
  ctx: PageContext;
  listingId: number;
  isFavorite: boolean;
  back: string;
}) {
  const t = listingText[ctx.lang];
  return (
    <form class="inline-form favorite" method="post" action={ctx.path(`/favorites/${listingId}`)} data-favorite="">
      <CsrfField ctx={ctx} />
      <input type="hidden" name="favorite" value={isFavorite ? 'false' : 'true'} />
      <input type="hidden" name="next" value={back} />
      <button
        class="button button--quiet favorite__button"
        type="submit"
        aria-pressed={ctx.visitor ? (isFavorite ? 'true' : 'false') : undefined}
        data-label-add={t.favorite_add}
        data-label-remove={t.favorite_remove}
      >
        <span class="favorite__icon" aria-hidden="true">
          {isFavorite ? '♥' : '♡'}
        </span>
        <span class="favorite__label">{isFavorite ? t.favorite_remove : t.favorite_add}</span>
      </button>
    </form>
  );
}

/** "Add to compare": the compare page adds it to the visitor's selection (a cookie) and shows them side by side. */
export function CompareLink({ ctx, listingId }: { ctx: PageContext; listingId: number }) {
  return (
    <a class="button button--quiet" href={ctx.path(withQuery('/compare', { add: listingId }))} rel="nofollow">
      {listingText[ctx.lang].compare_add}
    </a>
  );
}

/** Share links: each network's own share address, no script of theirs on the page. */
export function ShareLinks({ ctx, url, title }: { ctx: PageContext; url: string; title: string }) {
  const t = listingText[ctx.lang];
  const text = fill(t.share_text, { title });
  const u = encodeURIComponent(url);
  const links: [string, string, string][] = [
    ['email', t.share_email, `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${text}\n${url}`)}`],
    ['whatsapp', fill(t.share_on, { network: 'WhatsApp' }), `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`],
    ['facebook', fill(t.share_on, { network: 'Facebook' }), `https://www.facebook.com/sharer/sharer.php?u=${u}`],
    ['x', fill(t.share_on, { network: 'X' }), `https://x.com/intent/post?url=${u}&text=${encodeURIComponent(title)}`],
    ['linkedin', fill(t.share_on, { network: 'LinkedIn' }), `https://www.linkedin.com/sharing/share-offsite/?url=${u}`],
  ];
  return (
    <section class="listing-block share no-print" aria-labelledby="share-heading">
      <h2 id="share-heading">{t.share}</h2>
      <ul class="share__links">
        {links.map(([network, label, href]) => (
          <li key={network}>
            <a
              class={`share__link share__link--${network}`}
              href={href}
              rel="nofollow noopener noreferrer"
              target={network === 'email' ? undefined : '_blank'}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
