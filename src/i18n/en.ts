/** English: the reference catalogue. Every other catalogue must translate every key (checked by the type). */
export const en = {
  // Error codes (docs/api.md 0.2)
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
  rule_no_nul: 'must not contain a NUL character',
  rule_invalid: 'is not valid',
  rule_alias_conflict: 'gives another value than {name}',
  rule_exact_and_range: 'cannot be combined with {name}',
  rule_polygon: 'must be {min} to {max} “latitude longitude” pairs separated by commas',
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
  registration_closed: 'Registration is closed.',
  register_success: 'Your account was created.',
  logout_success: 'You have been signed out.',
  reset_requested: 'If an account uses this address, a link to reset the password has been sent to it.',
  reset_done: 'Your password was changed. Sign in with the new password.',
  rule_reset_token_invalid: 'is invalid, expired or already used',
  reset_mail_subject: 'Reset your password',
  reset_mail_body:
    'Hello {name},\n\nTo choose a new password, open this link within {minutes} minutes:\n{link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.',

  // Profiles and users
  profile_updated: 'Your profile was updated.',
  account_deleted: 'The account was deleted.',
  profile_password_incorrect: 'is incorrect',
  profile_display_name_blank: 'must contain text once HTML tags are removed',
  profile_delete_self: 'Delete your own account with DELETE /users/delete-profile.',

  // Media
  media_type_not_accepted: 'This file type is not accepted. Accepted types: {types}.',
  media_unreadable: 'The file could not be read as an image of its type.',
  media_too_many_pixels: 'The image is too large: at most {limit} megapixels.',
  media_not_multipart: 'Send the file as multipart/form-data.',
  media_too_many_parts: 'The form has too many parts or too long a field: send one file and the accepted text fields.',
  media_malformed_multipart: 'The multipart body is malformed.',
  media_rule_file_expected: 'must be a file',
  media_rule_repeated: 'must be sent only once',
  media_deleted: 'The media item was deleted.',

  // Social login
  social_provider_disabled: 'Sign-in with {provider} is not enabled on this server.',
  social_token_invalid: 'The {provider} sign-in token is not valid.',
  social_provider_unavailable: '{provider} cannot be reached right now. Try again shortly.',
  social_email_required:
    'Your {provider} account does not share an e-mail address, and an account here needs one. Allow access to your e-mail address, or register with a password.',
  rule_social_email_missing: 'carries no e-mail address',
  social_email_unverified:
    'An account with this e-mail address already exists, and {provider} has not verified that the address is yours. Sign in with your password instead.',

  // Listings
  listing_rule_unknown_user: 'is not an existing user',
  listing_rule_media_not_yours: 'must be one of your uploads that is not in another listing',
  listing_rule_media_not_image: 'must be an image',
  listing_rule_featured_not_in_gallery: 'must be one of the gallery’s images',
  listing_rule_agent_not_allowed: 'must be your own agent record or an agent of your agency',
  listing_rule_agency_not_allowed: 'must be your own agency',
  listing_changed_meanwhile: 'The listing changed state while you were editing it. Load it again and retry.',
  listing_deleted: 'The listing was deleted.',
  listing_data_part_invalid: 'must be a JSON object with the listing fields',

  // Leads
  lead_sent: 'Your message was sent.',
  lead_rule_blank: 'must contain text once HTML tags and control characters are removed',
  lead_mail_subject_property: 'New inquiry about “{title}”',
  lead_mail_subject_profile: 'New inquiry for {name}',
  lead_mail_intro_property: 'You have a new inquiry about the listing “{title}”:\n{url}',
  lead_mail_intro_profile: 'You have a new inquiry for {name}.',
  lead_mail_details:
    'Name: {name}\nE-mail: {email}\nPhone: {phone}\nSender type: {user_type}\n\nMessage:\n{message}\n\nReply to this mail to answer the sender directly.',
  lead_mail_no_phone: 'not given',
  lead_user_type_buyer: 'Buyer',
  lead_user_type_tenant: 'Tenant',
  lead_user_type_agent: 'Agent',
  lead_user_type_other: 'Other',

  // Reviews
  review_own_target: 'You cannot review your own listing, agent record or agency.',
  review_rule_blank: 'must contain text once HTML tags are removed',
  review_author_deleted: 'Deleted user',
  review_deleted: 'The review was deleted.',
  review_reaction_contended: 'Your reaction changed in another request at the same time. Try again.',

  // Directory (agents and agencies)
  directory_rule_blank_name: 'must contain text once HTML tags are removed',
  directory_rule_image_not_allowed: 'must be an image uploaded by you or by the record’s own user',
  directory_agent_in_other_agency: 'This agent belongs to another agency. It must be detached from that agency first.',
  directory_agent_attached: 'The agent is part of the agency.',
  directory_agent_detached: 'The agent was detached from the agency.',

  // Payments: packages and invoices
  payments_rule_administrators_only: 'may be used only by administrators',
  payments_rule_staff_only: 'may be used only by administrators and managers',
  package_rule_blank: 'must contain text once HTML tags are removed',
  package_rule_currency_unknown: 'must be an ISO 4217 currency code',
  package_rule_price_decimals: 'must have at most {digits} decimals in {currency}',
  package_rule_price_too_large: 'is too large for {currency}',
  package_rule_tax_rate_decimals: 'must have at most two decimals',
  package_rule_one_time_frequency: 'must be 1 for a one-time package',
  package_deleted: 'The package was deleted.',
  package_hidden_in_use: 'The package is in use, so it was hidden instead of deleted.',
  invoice_rule_end_before_start: 'must not be before start_date',
  invoice_buyer_deleted: 'The buyer’s account was deleted, so there is no profile to answer with. The invoice was kept as it is.',
  invoice_not_pending: 'This invoice is {status}: only a pending invoice can be marked paid.',
  invoice_not_bank_transfer: 'Only bank transfers are marked paid by hand; this invoice is paid by {method}.',
  invoice_marked_paid: 'The invoice was marked paid.',

  // Payments: quotas
  quota_no_membership: 'This needs an active membership package. Buy or renew one, then try again.',
  quota_no_listing_credits: 'Your membership package has no listing credits left. Renew or upgrade it to list more properties.',
  quota_no_featured_credits: 'Your membership package has no featured credits left. Renew or upgrade it to feature more listings.',
  quota_listing_fee_unpaid: 'This listing’s fee is not paid yet. Pay it through checkout (item “listing”), then submit the listing.',
  quota_featured_by_checkout: 'Featuring a listing is bought through checkout (item “featured”).',

  // Payments: checkout
  payment_provider_unavailable: 'The payment provider cannot be reached right now. Try again shortly.',
  checkout_rule_method_required: 'is required for an item that is not free',
  checkout_rule_method_not_free: 'cannot be “free” for an item that costs something',
  checkout_rule_stripe_disabled: 'cannot be “stripe”: card payments are not enabled on this server',
  checkout_listing_fees_off: 'Listings are not paid for one by one on this server (payment mode “{mode}”).',
  checkout_featured_off: 'Featuring is not sold through checkout on this server (payment mode “{mode}”).',
  checkout_listing_not_draft: 'Only a draft listing’s fee can be paid; this listing is {state}.',
  checkout_listing_already_paid: 'This listing’s fee has been paid already.',
  checkout_featured_not_published: 'Only a published listing can be featured; this listing is {state}.',
  checkout_already_featured: 'This listing is featured already.',
  checkout_bank_transfer_reference:
    'Transfer reference: {number}. Write it in the transfer’s description so that your payment can be matched to your invoice.',
  stripe_webhook_not_configured: 'Stripe webhooks are not configured on this server.',
  stripe_rule_signature_invalid: 'must be a valid Stripe signature of this body, at most 5 minutes old',

  // Payments: memberships
  membership_none: 'You have no membership.',
  membership_not_active: 'Your membership is {status}: there is no renewal to stop.',
  membership_cancel_unavailable:
    'Your membership renews through Stripe, which is not configured on this server, so its renewal cannot be stopped here. Contact the site’s administrator.',
  membership_cancelled: 'Your membership will not renew. It stays active until it expires.',

  // Saved searches (docs/api.md 7): messages, and the parts of a saved search's `display_text`
  saved_search_limit_reached: 'You already have {limit} saved searches, the most allowed. Delete one to save another.',
  saved_search_rule_query_missing: 'is required (or query_string instead)',
  saved_search_rule_query_both: 'cannot be sent together with query: send one of them',
  saved_search_rule_blank_name: 'must contain text once HTML tags are removed',
  saved_search_rule_update_empty: 'must hold at least one of name, email_alerts and frequency',
  saved_search_deleted: 'The saved search was deleted.',
  saved_search_text_all: 'All properties',
  saved_search_text_properties: 'Properties',
  saved_search_text_in_place: '{what} in {place}',
  saved_search_text_with_features: 'with {features}',
  saved_search_text_beds: '{count} beds',
  saved_search_text_beds_one: '{count} bed',
  saved_search_text_baths: '{count} baths',
  saved_search_text_baths_one: '{count} bath',
  saved_search_text_up_to: 'up to {max}',
  saved_search_text_from: 'from {min}',
  saved_search_text_size: 'size {range}',
  saved_search_text_prices_in: 'prices in {currency}',
  saved_search_text_keyword: '“{keyword}”',
  saved_search_text_near: 'near {point}',
  saved_search_text_within: 'within {distance} of {point}',
  saved_search_text_unit_km: 'km',
  saved_search_text_unit_mi: 'mi',
  saved_search_text_in_box: 'in an area of the map',
  saved_search_text_in_polygon: 'in a drawn area',
  saved_search_text_featured: 'featured only',
  saved_search_text_sold: 'sold ones included',
  notification_rule_one_target: 'name exactly one target: user_id, role, or all: true',
  notification_rule_data_size: 'must be at most {max} bytes as JSON',
  notification_rule_blank: 'must contain text once HTML tags are removed',
  notification_rule_unsubscribe_token: 'is not a valid unsubscribe link: copy the whole link from the e-mail',
  notification_delivery_not_dead: 'This message is {status}: only a dead message can be sent again.',
} as const;

export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string>;
