/**
 * Video and virtual-tour URLs as the listing page shows them (docs/site.md): the players the site's CSP allows in a
 * frame (EMBEDDED_PLAYERS in src/site/index.ts) are embedded, any other http(s) URL is a plain link, and anything
 * else (a `javascript:` URL written past the API's checks) is not shown at all.
 */
export type Embed = { kind: 'frame'; src: string } | { kind: 'link'; href: string } | null;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const MATTERPORT_ID = /^[A-Za-z0-9]{6,20}$/;

/** The URL when it is an absolute http(s) URL, else null. */
export function httpUrl(value: string): URL | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
}

/** A YouTube video → youtube-nocookie's player, a Vimeo video → Vimeo's player, another http(s) URL → a link. */
export function videoEmbed(value: string): Embed {
  const url = httpUrl(value.trim());
  if (!url) return null;
  const host = url.hostname.replace(/^(www\.|m\.)/, '');
  let youtube: string | undefined;
  if (host === 'youtu.be') youtube = url.pathname.split('/')[1];
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const [, first, second] = url.pathname.split('/');
    youtube =
      first === 'watch'
        ? (url.searchParams.get('v') ?? undefined)
        : ['embed', 'shorts', 'live', 'v'].includes(first ?? '')
          ? second
          : undefined;
  }
  if (youtube !== undefined && YOUTUBE_ID.test(youtube)) return { kind: 'frame', src: `https://www.youtube-nocookie.com/embed/${youtube}` };
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = url.pathname.split('/').filter(Boolean).at(-1);
    if (id !== undefined && VIMEO_ID.test(id)) return { kind: 'frame', src: `https://player.vimeo.com/video/${id}` };
  }
  return { kind: 'link', href: url.href };
}

/** A Matterport showcase → its player, another http(s) URL → a link. */
export function tourEmbed(value: string): Embed {
  const url = httpUrl(value.trim());
  if (!url) return null;
  const id = url.searchParams.get('m');
  if (url.hostname === 'my.matterport.com' && url.pathname.startsWith('/show') && id !== null && MATTERPORT_ID.test(id)) {
    return { kind: 'frame', src: `https://my.matterport.com/show/?m=${id}` };
  }
  return { kind: 'link', href: url.href };
}
