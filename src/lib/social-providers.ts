/** The social sign-in providers (docs/api.md 2.2): one name for the adapters, the accounts they link and the API. */
export const SOCIAL_PROVIDERS = ['google', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
