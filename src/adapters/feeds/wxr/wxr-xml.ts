import type { SaxesTagNS } from 'saxes';
import { shortened } from '../feed-records.js';
import { FeedXmlDocument } from '../xml-parser.js';

/**
 * The XML layer of the WXR reader: a WordPress export streamed into its channel-level entries (`<wp:author>`,
 * `<wp:term>`, `<item>`), each read whole and handed on as plain text; what the entries mean is the reader's
 * business (wxr-reader.ts). Only one entry is held at a time, so memory follows the largest post, never the
 * number of posts.
 *
 * Elements are named by namespace, not by the prefix the file happens to use: `wp:` is any WXR version's
 * namespace (http://wordpress.org/export/1.0/ to 1.2/), and elements of namespaces the reader has no use for are
 * skipped. The reader refuses any DOCTYPE: WordPress writes none, and refusing it rules out entity tricks.
 */

interface WxrCategory {
  /** The taxonomy (`property_type`, `category`, …). */
  domain: string;
  /** The term's slug. */
  nicename: string;
  name: string;
}

export interface WxrMeta {
  key: string;
  value: string;
}

/** One channel-level element, its child elements' texts trimmed. */
export interface WxrEntry {
  /** `site`: the channel's `<link>` or `<wp:base_site_url>`, its text as the field of that name. */
  kind: 'author' | 'term' | 'item' | 'site';
  /** Where its start tag is: "line N". */
  at: string;
  /** Child texts by name ("title", "wp:post_id", "dc:creator"); a repeated name keeps its first. */
  fields: Map<string, string>;
  /** An item's `<category>` elements, in order. */
  categories: WxrCategory[];
  /** An item's `<wp:postmeta>` entries, in order; a key may repeat. */
  meta: WxrMeta[];
}

const ENTRY_KINDS: Record<string, WxrEntry['kind']> = { 'wp:author': 'author', 'wp:term': 'term', item: 'item' };
/** The channel's own elements that say which site the export is of. */
const SITE_FIELDS = new Set(['link', 'wp:base_site_url']);
const NAMESPACE_PREFIXES: Record<string, string> = {
  '': '',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://purl.org/dc/elements/1.1/': 'dc',
};
const WXR_NAMESPACE = /^http:\/\/wordpress\.org\/export\/1\.\d+\/$/;

/** The element's name with the reader's own prefix, or undefined for a namespace it does not read. */
function nameOf(tag: SaxesTagNS): string | undefined {
  const prefix = WXR_NAMESPACE.test(tag.uri) ? 'wp' : NAMESPACE_PREFIXES[tag.uri];
  if (prefix === undefined) return undefined;
  return prefix === '' ? tag.local : `${prefix}:${tag.local}`;
}

/**
 * The longest piece of a WordPress export's text, in characters (FeedXmlSettings.maxPiece): larger than a feed's,
 * because an export carries every post of the site, and a page builder keeps a whole page in one post meta value.
 */
const WXR_MAX_PIECE = 16 * 1024 * 1024;

/** The entries of one WXR document, in document order; throws `FeedSyntaxError` where the document breaks. */
export async function* readWxrEntries(input: NodeJS.ReadableStream): AsyncIterable<WxrEntry> {
  // Entries finished by the chunk just written; handed out before the next chunk is read.
  const ready: WxrEntry[] = [];
  // Names of the open elements, from the root down (undefined for a namespace not read): pushed and popped only.
  const path: (string | undefined)[] = [];
  let entry: WxrEntry | undefined;
  let meta: { key: string; value: string } | undefined;
  let category: { domain: string; nicename: string } | undefined;
  // The text of the element being captured (an entry's child, or a postmeta's key or value); undefined elsewhere.
  let text: string | undefined;
  let siteField: string | undefined;
  let siteLine = 1;

  // Namespaces on: WXR's elements are known by their namespace, whatever prefix a file gives it. saxes looks a
  // prefix up through the open elements, which the depth cap keeps to a few.
  const document: FeedXmlDocument<{ xmlns: true }> = new FeedXmlDocument(
    { documentName: 'a WordPress export', maxPiece: WXR_MAX_PIECE, parser: { xmlns: true } },
    {
      open(tag, depth, line) {
        const name = nameOf(tag);
        path.push(name);
        const kind = name === undefined ? undefined : ENTRY_KINDS[name];
        if (depth === 1) {
          if (name !== 'rss') document.failAt(`the root element is <${shortened(tag.name)}>; a WordPress export's is <rss>`);
        } else if (depth === 3 && path[1] === 'channel' && kind !== undefined) {
          entry = { kind, at: `line ${line}`, fields: new Map(), categories: [], meta: [] };
        } else if (depth === 3 && path[1] === 'channel' && name !== undefined && SITE_FIELDS.has(name)) {
          siteField = name;
          siteLine = line;
          text = '';
        } else if (entry && depth === 4) {
          text = '';
          if (name === 'wp:postmeta') meta = { key: '', value: '' };
          else if (name === 'category') {
            category = { domain: tag.attributes.domain?.value ?? '', nicename: tag.attributes.nicename?.value ?? '' };
          }
        } else if (meta && depth === 5 && (name === 'wp:meta_key' || name === 'wp:meta_value')) {
          text = '';
        } else {
          // Deeper content (comments, term meta) is not read.
          text = undefined;
        }
      },
      text(piece) {
        if (text !== undefined) text += piece;
      },
      close(depth) {
        const name = path.pop();
        if (siteField !== undefined && depth === 3) {
          ready.push({
            kind: 'site',
            at: `line ${siteLine}`,
            fields: new Map([[siteField, (text ?? '').trim()]]),
            categories: [],
            meta: [],
          });
          siteField = undefined;
          text = undefined;
          return;
        }
        if (!entry) return;
        if (depth === 5 && meta) {
          if (name === 'wp:meta_key') meta.key = (text ?? '').trim();
          else if (name === 'wp:meta_value') meta.value = (text ?? '').trim();
          text = undefined;
        } else if (depth === 4) {
          if (meta) {
            if (meta.key !== '') entry.meta.push(meta);
            meta = undefined;
          } else if (category) {
            entry.categories.push({ ...category, name: (text ?? '').trim() });
            category = undefined;
          } else if (name !== undefined && text !== undefined && !entry.fields.has(name)) {
            entry.fields.set(name, text.trim());
          }
          text = undefined;
        } else if (depth === 3) {
          ready.push(entry);
          entry = undefined;
        }
      },
    },
  );

  yield* document.records(input, ready);
}
