/** English: the reference catalogue. Every other catalogue must translate every key (checked by the type). */
export const en = {
  // Error codes (API.md 0.2)
  validation_failed: 'The request is not valid.',
  invalid_json: 'The request body is not valid JSON.',
  unauthorized: 'Sign in to do this.',
  invalid_token: 'The access token is not valid.',
  token_expired: 'The access token has expired.',
  invalid_credentials: 'The username or password is incorrect.',
  quota_exceeded: 'Your plan has no credits left for this.',
  forbidden: 'You are not allowed to do this.',
  account_suspended: 'This account is suspended.',
  not_found: 'Not found.',
  route_not_found: 'No route matches {method} {path}.',
  conflict: 'This conflicts with an existing record.',
  email_taken: 'This e-mail address is already registered.',
  username_taken: 'This username is already taken.',
  already_reviewed: 'You have already reviewed this.',
  invalid_transition: 'This action is not possible while the listing is {state}.',
  payload_too_large: 'The request body is too large (limit {limit} bytes).',
  unsupported_media_type: 'This content type is not supported.',
  rate_limited: 'Too many requests. Try again in {seconds} seconds.',
  internal_error: 'Something went wrong on our side. Quote request id {request_id} if you report it.',
  service_unavailable: 'The service is not available right now. Try again shortly.',

  // Field rules (the `errors[].message` of a 400)
  rule_required: 'is required',
  rule_unknown_field: 'is not an accepted field',
  rule_type: 'must be of type {type}',
  rule_enum: 'must be one of: {values}',
  rule_minimum: 'must be at least {limit}',
  rule_maximum: 'must be at most {limit}',
  rule_min_length: 'must be at least {limit} characters long',
  rule_max_length: 'must be at most {limit} characters long',
  rule_max_items: 'must have at most {limit} items',
  rule_pattern: 'has an invalid format',
  rule_format: 'must be a valid {format}',
  rule_invalid: 'is not valid',
  rule_integer_list: 'must be a comma-separated list of positive integers',
  rule_slug_list: 'must be a comma-separated list of slugs',
  rule_unknown_term: 'does not match any term of this taxonomy',
  rule_wrong_taxonomy: 'must be a term of taxonomy {taxonomy}',
  rule_not_for_taxonomy: 'is not accepted for taxonomy {taxonomy}',
  rule_parent_cycle: 'cannot be the term itself or one of its descendants',
  rule_empty_slug: 'must contain at least one letter or digit',

  // Other messages
  record_not_found: 'Record not found',
  login_success: 'You have successfully logged in.',
  term_slug_taken: 'A term with this slug already exists in this taxonomy.',
  term_deleted: 'The term was deleted.',

  // Accounts (auth, sessions, password reset)

  // Profiles and users

  // Media

  // Social login
} as const;

export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string>;
