import { type Static, type TSchema, Type } from 'typebox';

const INT4_MAX = 2_147_483_647;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The home page's blocks an administrator may order or leave out (docs/site.md). */
export const HOME_SECTIONS = ['search', 'featured', 'newest', 'cities'] as const;
export type HomeSection = (typeof HOME_SECTIONS)[number];

/**
 * The listing fields an administrator may require before a listing is submitted for approval or publication
 * (docs/api.md 14), by the names of the listing's input (docs/api.md 4.1): `latitude` stands for the map
 * position (latitude and longitude), `media_ids` for at least one photo, the term and place fields for at least
 * one term. The contract's own rules (a title) always apply.
 */
export const SUBMISSION_FIELDS = [
  'description',
  'price',
  'type_ids',
  'status_ids',
  'city',
  'address',
  'latitude',
  'media_ids',
  'bedrooms',
  'bathrooms',
  'size',
] as const;
export type SubmissionField = (typeof SUBMISSION_FIELDS)[number];

const HEX_COLOUR = '^#[0-9a-fA-F]{6}$';

/** The brand as GET and PUT /site-settings answer it (docs/api.md 14). */
export const SiteSettings = Type.Object(
  {
    site_name: Type.String(),
    tagline: Type.String(),
    logo_id: Nullable(Type.Integer({ description: 'The media id of the logo; null when there is none' })),
    logo_url: Nullable(Type.String({ description: 'The logo’s medium size (fits 600×600)' })),
    primary_color: Type.String({ description: '#rrggbb, lower case: buttons (with white text on them), links, the header' }),
    accent_color: Type.String({ description: '#rrggbb, lower case: highlights (with dark text on them) and the focus ring' }),
    contact_email: Type.String(),
    contact_phone: Type.String(),
    contact_address: Type.String(),
    hero_image_id: Nullable(Type.Integer({ description: 'The media id of the home page’s hero picture; null when there is none' })),
    hero_image_url: Nullable(Type.String({ description: 'The hero picture’s large size (fits 1200×1200)' })),
    home_sections: Type.Array(Type.Enum([...HOME_SECTIONS]), {
      description: 'The home page’s blocks, in order; those left out are not shown',
    }),
    submission_fields: Type.Array(Type.Enum([...SUBMISSION_FIELDS]), {
      description:
        'The listing fields a submission needs beyond the contract’s (empty, the default: none): a submission by a non-moderator ' +
        'without one is a 400 naming each missing field',
    }),
    updated_at: Nullable(Type.String({ description: 'ISO 8601 UTC of the last change; null while the defaults apply' })),
  },
  { $id: 'SiteSettings', title: 'SiteSettings' },
);
export type SiteSettingsRecord = Static<typeof SiteSettings>;

const Colour = (what: string) =>
  Type.String({
    pattern: HEX_COLOUR,
    description: `#rrggbb. ${what}`,
  });
const MediaId = Nullable(
  Type.Integer({ minimum: 1, maximum: INT4_MAX, description: 'An image you uploaded (POST /media/upload); null removes it' }),
);

export const UpdateSiteSettingsBody = Type.Object(
  {
    site_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Plain text; must keep some once tags are removed' }),
    ),
    tagline: Type.Optional(Type.String({ maxLength: 200, description: 'Plain text; "" clears it' })),
    logo_id: Type.Optional(MediaId),
    primary_color: Type.Optional(Colour('White text on it must have a contrast of at least 4.5:1 (WCAG AA)')),
    accent_color: Type.Optional(
      Colour('Dark text (#1b1f24) on it must have a contrast of at least 4.5:1, and it at least 3:1 against white (the focus ring)'),
    ),
    contact_email: Type.Optional(
      Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], { description: 'Stored lower-cased; "" clears it' }),
    ),
    contact_phone: Type.Optional(
      Type.String({ maxLength: 40, pattern: '^[0-9+()#*./ -]*$', description: 'Digits, spaces and + ( ) # * . / -; "" clears it' }),
    ),
    contact_address: Type.Optional(Type.String({ maxLength: 300, description: 'Plain text, one line; "" clears it' })),
    hero_image_id: Type.Optional(MediaId),
    home_sections: Type.Optional(
      Type.Array(Type.Enum([...HOME_SECTIONS]), {
        maxItems: HOME_SECTIONS.length,
        uniqueItems: true,
        description: 'The home page’s blocks in the order shown; each at most once, those left out are hidden',
      }),
    ),
    submission_fields: Type.Optional(
      Type.Array(Type.Enum([...SUBMISSION_FIELDS]), {
        maxItems: SUBMISSION_FIELDS.length,
        uniqueItems: true,
        description: 'The listing fields required before a listing is submitted; [] requires nothing more than the contract',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateSiteSettings', description: 'Partial: omitted fields stay as they are' },
);
export type UpdateSiteSettingsInput = Static<typeof UpdateSiteSettingsBody>;
