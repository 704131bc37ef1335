import type { Generated, Insertable, Selectable } from 'kysely';

/** Uploaded files. */
export interface MediaTables {
  media: MediaTable;
}

export interface MediaTable {
  id: Generated<number>;
  owner_id: number;
  /** The listing whose gallery or documents hold this file, if any. */
  listing_id: number | null;
  position: Generated<number>;
  /** Generated storage name of the original (adapters/storage); never derived from the client's file name. */
  storage_key: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  size_bytes: number;
  title: Generated<string>;
  caption: Generated<string>;
  alt: Generated<string>;
  description: Generated<string>;
  /** JSON: `{ thumbnail|medium|large: { key, width, height } }`, empty for documents. */
  sizes: Generated<string>;
  created_at: string;
}

export type MediaRow = Selectable<MediaTable>;

export type NewMedia = Insertable<MediaTable>;
