import type { Catalogue } from './en.js';

export const es: Catalogue = {
  validation_failed: 'La solicitud no es válida.',
  invalid_json: 'El cuerpo de la solicitud no es un JSON válido.',
  unauthorized: 'Inicia sesión para hacer esto.',
  invalid_token: 'El token de acceso no es válido.',
  token_expired: 'El token de acceso ha caducado.',
  invalid_credentials: 'El nombre de usuario o la contraseña son incorrectos.',
  quota_exceeded: 'Tu plan no tiene créditos disponibles para esto.',
  forbidden: 'No tienes permiso para hacer esto.',
  account_suspended: 'Esta cuenta está suspendida.',
  not_found: 'No encontrado.',
  route_not_found: 'Ninguna ruta coincide con {method} {path}.',
  conflict: 'Esto entra en conflicto con un registro existente.',
  email_taken: 'Esta dirección de correo ya está registrada.',
  username_taken: 'Este nombre de usuario ya está en uso.',
  already_reviewed: 'Ya has publicado una reseña.',
  invalid_transition: 'Esta acción no es posible mientras el anuncio está en estado {state}.',
  payload_too_large: 'El cuerpo de la solicitud es demasiado grande (límite {limit} bytes).',
  unsupported_media_type: 'Este tipo de contenido no es compatible.',
  rate_limited: 'Demasiadas solicitudes. Inténtalo de nuevo en {seconds} segundos.',
  internal_error: 'Algo ha fallado por nuestra parte. Indica el identificador {request_id} si lo notificas.',
  service_unavailable: 'El servicio no está disponible ahora. Inténtalo de nuevo en breve.',
  rule_required: 'es obligatorio',
  rule_unknown_field: 'no es un campo aceptado',
  rule_type: 'debe ser de tipo {type}',
  rule_enum: 'debe ser uno de: {values}',
  rule_minimum: 'debe ser al menos {limit}',
  rule_maximum: 'debe ser como máximo {limit}',
  rule_min_length: 'debe tener al menos {limit} caracteres',
  rule_max_length: 'debe tener como máximo {limit} caracteres',
  rule_max_items: 'debe tener como máximo {limit} elementos',
  rule_pattern: 'tiene un formato no válido',
  rule_format: 'debe ser un {format} válido',
  rule_invalid: 'no es válido',
  rule_integer_list: 'debe ser una lista de enteros positivos separados por comas',
  rule_slug_list: 'debe ser una lista de slugs separados por comas',
  rule_unknown_term: 'no coincide con ningún término de esta taxonomía',
  rule_wrong_taxonomy: 'debe ser un término de la taxonomía {taxonomy}',
  rule_not_for_taxonomy: 'no se acepta para la taxonomía {taxonomy}',
  rule_parent_cycle: 'no puede ser el propio término ni uno de sus descendientes',
  rule_empty_slug: 'debe contener al menos una letra o un dígito',
  record_not_found: 'Registro no encontrado',
  login_success: 'Has iniciado sesión correctamente.',
  term_slug_taken: 'Ya existe un término con este slug en esta taxonomía.',
  term_deleted: 'El término se ha eliminado.',

  // Accounts (auth, sessions, password reset)

  // Profiles and users

  // Media

  // Social login
};
