import type { Catalogue } from './en.js';

export const fr: Catalogue = {
  validation_failed: 'La requête n’est pas valide.',
  invalid_json: 'Le corps de la requête n’est pas un JSON valide.',
  unauthorized: 'Connectez-vous pour effectuer cette action.',
  invalid_token: 'Le jeton d’accès n’est pas valide.',
  token_expired: 'Le jeton d’accès a expiré.',
  invalid_credentials: 'Le nom d’utilisateur ou le mot de passe est incorrect.',
  quota_exceeded: 'Votre formule n’a plus de crédits pour cette action.',
  forbidden: 'Vous n’êtes pas autorisé à effectuer cette action.',
  account_suspended: 'Ce compte est suspendu.',
  not_found: 'Introuvable.',
  route_not_found: 'Aucune route ne correspond à {method} {path}.',
  conflict: 'Cela entre en conflit avec un enregistrement existant.',
  email_taken: 'Cette adresse e-mail est déjà enregistrée.',
  username_taken: 'Ce nom d’utilisateur est déjà pris.',
  already_reviewed: 'Vous avez déjà laissé un avis.',
  invalid_transition: 'Cette action est impossible tant que l’annonce est à l’état {state}.',
  payload_too_large: 'Le corps de la requête est trop volumineux (limite {limit} octets).',
  unsupported_media_type: 'Ce type de contenu n’est pas pris en charge.',
  rate_limited: 'Trop de requêtes. Réessayez dans {seconds} secondes.',
  internal_error: 'Une erreur est survenue de notre côté. Indiquez l’identifiant {request_id} si vous la signalez.',
  service_unavailable: 'Le service est momentanément indisponible. Réessayez bientôt.',
  rule_required: 'est obligatoire',
  rule_unknown_field: 'n’est pas un champ accepté',
  rule_type: 'doit être de type {type}',
  rule_enum: 'doit être l’une des valeurs : {values}',
  rule_minimum: 'doit être au moins {limit}',
  rule_maximum: 'doit être au plus {limit}',
  rule_min_length: 'doit contenir au moins {limit} caractères',
  rule_max_length: 'doit contenir au plus {limit} caractères',
  rule_max_items: 'doit contenir au plus {limit} éléments',
  rule_pattern: 'a un format non valide',
  rule_format: 'doit être un(e) {format} valide',
  rule_invalid: 'n’est pas valide',
  rule_integer_list: 'doit être une liste d’entiers positifs séparés par des virgules',
  rule_slug_list: 'doit être une liste de slugs séparés par des virgules',
  rule_unknown_term: 'ne correspond à aucun terme de cette taxonomie',
  rule_wrong_taxonomy: 'doit être un terme de la taxonomie {taxonomy}',
  rule_not_for_taxonomy: 'n’est pas accepté pour la taxonomie {taxonomy}',
  rule_parent_cycle: 'ne peut être ni le terme lui-même ni l’un de ses descendants',
  rule_empty_slug: 'doit contenir au moins une lettre ou un chiffre',
  record_not_found: 'Aucun enregistrement trouvé',
  login_success: 'Vous êtes connecté.',
  term_slug_taken: 'Un terme avec ce slug existe déjà dans cette taxonomie.',
  term_deleted: 'Le terme a été supprimé.',

  // Accounts (auth, sessions, password reset)

  // Profiles and users

  // Media

  // Social login
};
