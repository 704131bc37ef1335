/**
 * How an export names a listing made here, which no source gave a key (docs/data-exchange.md, "Own exports read
 * back in place"): `realty:<site key>:<id>`. The site key tells this site's files from another site's, so that
 * reading one back here finds the listing again, while another site's file creates listings as any feed does.
 */
export function ownKey(siteKey: string, listingId: number): string {
  return `realty:${siteKey}:${listingId}`;
}

const OWN_KEY = /^realty:([0-9a-f]{16}):([1-9][0-9]{0,14})$/;

/** The id of the listing an own key of this site names; undefined for any other key (another site's included). */
export function ownListingId(siteKey: string, key: string): number | undefined {
  const match = OWN_KEY.exec(key);
  return match && match[1] === siteKey ? Number(match[2]) : undefined;
}
