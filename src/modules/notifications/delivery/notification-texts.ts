import { fillPlaceholders, type Language } from '../../../i18n/index.js';

/**
 * The titles and messages of the notifications the service writes itself, in the four bundled languages.
 * A notification is written in its recipient's language (their profile's `language`, else English) when it
 * is created, so the in-app list, the e-mail and the push message all say the same thing.
 */
const TEXTS = {
  en: {
    property_approved_title: 'Your listing was approved',
    property_approved_message: '“{title}” is now published.',
    property_disapproved_title: 'Your listing was not approved',
    property_disapproved_message: '“{title}” was not approved.',
    property_disapproved_reason_message: '“{title}” was not approved: {reason}',
    property_expired_title: 'Your listing expired',
    property_expired_message: '“{title}” is no longer published.',
    new_lead_title: 'New inquiry',
    new_lead_message: '{name} sent an inquiry about {about}.',
    new_review_title: 'New review',
    new_review_message: '{author} rated {about} {rating}/5.',
    saved_search_match_title: 'New match for “{search}”',
    saved_search_match_message: '{title} matches your saved search.',
    saved_search_digest_title: 'New matches for “{search}”',
    saved_search_digest_message: '{count} new listings match your saved search.',
    membership_activated_title: 'Membership active',
    membership_activated_message: 'Your “{package}” package is active.',
    membership_expiring_title: 'Membership ends soon',
    membership_expiring_message: 'Your package ends on {date}.',
    membership_renewing_message: 'Your package renews on {date}.',
    membership_expired_title: 'Membership ended',
    membership_expired_message: 'Your package has ended; {count} listings expired with it.',
    payment_received_title: 'Payment received',
    payment_received_message: 'We received {amount} for invoice {number}.',
    a_listing: 'a listing',
    an_agent: 'your agent profile',
    an_agency: 'your agency',
  },
  ar: {
    property_approved_title: 'تمت الموافقة على إعلانك',
    property_approved_message: '«{title}» منشور الآن.',
    property_disapproved_title: 'لم تتم الموافقة على إعلانك',
    property_disapproved_message: 'لم تتم الموافقة على «{title}».',
    property_disapproved_reason_message: 'لم تتم الموافقة على «{title}»: {reason}',
    property_expired_title: 'انتهت صلاحية إعلانك',
    property_expired_message: '«{title}» لم يعد منشورًا.',
    new_lead_title: 'استفسار جديد',
    new_lead_message: 'أرسل {name} استفسارًا بخصوص {about}.',
    new_review_title: 'تقييم جديد',
    new_review_message: 'قيّم {author} {about} بـ {rating}/5.',
    saved_search_match_title: 'نتيجة جديدة لـ «{search}»',
    saved_search_match_message: '{title} يطابق بحثك المحفوظ.',
    saved_search_digest_title: 'نتائج جديدة لـ «{search}»',
    saved_search_digest_message: '{count} إعلانات جديدة تطابق بحثك المحفوظ.',
    membership_activated_title: 'العضوية مفعّلة',
    membership_activated_message: 'باقتك «{package}» مفعّلة.',
    membership_expiring_title: 'العضوية تنتهي قريبًا',
    membership_expiring_message: 'تنتهي باقتك في {date}.',
    membership_renewing_message: 'تتجدد باقتك في {date}.',
    membership_expired_title: 'انتهت العضوية',
    membership_expired_message: 'انتهت باقتك؛ وانتهت معها {count} إعلانات.',
    payment_received_title: 'تم استلام الدفعة',
    payment_received_message: 'استلمنا {amount} للفاتورة {number}.',
    a_listing: 'إعلان',
    an_agent: 'ملفك كوكيل',
    an_agency: 'وكالتك',
  },
  es: {
    property_approved_title: 'Tu anuncio fue aprobado',
    property_approved_message: '«{title}» ya está publicado.',
    property_disapproved_title: 'Tu anuncio no fue aprobado',
    property_disapproved_message: '«{title}» no fue aprobado.',
    property_disapproved_reason_message: '«{title}» no fue aprobado: {reason}',
    property_expired_title: 'Tu anuncio caducó',
    property_expired_message: '«{title}» ya no está publicado.',
    new_lead_title: 'Nueva consulta',
    new_lead_message: '{name} envió una consulta sobre {about}.',
    new_review_title: 'Nueva reseña',
    new_review_message: '{author} valoró {about} con {rating}/5.',
    saved_search_match_title: 'Nuevo resultado para «{search}»',
    saved_search_match_message: '{title} coincide con tu búsqueda guardada.',
    saved_search_digest_title: 'Nuevos resultados para «{search}»',
    saved_search_digest_message: '{count} anuncios nuevos coinciden con tu búsqueda guardada.',
    membership_activated_title: 'Membresía activa',
    membership_activated_message: 'Tu paquete «{package}» está activo.',
    membership_expiring_title: 'Tu membresía termina pronto',
    membership_expiring_message: 'Tu paquete termina el {date}.',
    membership_renewing_message: 'Tu paquete se renueva el {date}.',
    membership_expired_title: 'Membresía terminada',
    membership_expired_message: 'Tu paquete terminó; {count} anuncios caducaron con él.',
    payment_received_title: 'Pago recibido',
    payment_received_message: 'Recibimos {amount} por la factura {number}.',
    a_listing: 'un anuncio',
    an_agent: 'tu perfil de agente',
    an_agency: 'tu agencia',
  },
  fr: {
    property_approved_title: 'Votre annonce a été approuvée',
    property_approved_message: '« {title} » est maintenant publiée.',
    property_disapproved_title: 'Votre annonce n’a pas été approuvée',
    property_disapproved_message: '« {title} » n’a pas été approuvée.',
    property_disapproved_reason_message: '« {title} » n’a pas été approuvée : {reason}',
    property_expired_title: 'Votre annonce a expiré',
    property_expired_message: '« {title} » n’est plus publiée.',
    new_lead_title: 'Nouvelle demande',
    new_lead_message: '{name} a envoyé une demande au sujet de {about}.',
    new_review_title: 'Nouvel avis',
    new_review_message: '{author} a noté {about} {rating}/5.',
    saved_search_match_title: 'Nouveau résultat pour « {search} »',
    saved_search_match_message: '{title} correspond à votre recherche enregistrée.',
    saved_search_digest_title: 'Nouveaux résultats pour « {search} »',
    saved_search_digest_message: '{count} nouvelles annonces correspondent à votre recherche enregistrée.',
    membership_activated_title: 'Abonnement actif',
    membership_activated_message: 'Votre formule « {package} » est active.',
    membership_expiring_title: 'Votre abonnement se termine bientôt',
    membership_expiring_message: 'Votre formule se termine le {date}.',
    membership_renewing_message: 'Votre formule se renouvelle le {date}.',
    membership_expired_title: 'Abonnement terminé',
    membership_expired_message: 'Votre formule est terminée ; {count} annonces ont expiré avec elle.',
    payment_received_title: 'Paiement reçu',
    payment_received_message: 'Nous avons reçu {amount} pour la facture {number}.',
    a_listing: 'une annonce',
    an_agent: 'votre profil d’agent',
    an_agency: 'votre agence',
  },
} as const satisfies Record<Language, Record<string, string>>;

export type NotificationTextKey = keyof (typeof TEXTS)['en'];

/** Placeholder values: as they are, or a text of this catalogue in the same language (`{about}` → "your agency"). */
export type TextParams = Record<string, string | number | { text: NotificationTextKey }>;

/** A notification text in a language, with `{name}` placeholders filled. */
export function notificationText(language: Language, key: NotificationTextKey, params: TextParams = {}): string {
  return fillPlaceholders(TEXTS[language][key], (name) => {
    const value = params[name];
    if (value === undefined) return undefined;
    return typeof value === 'object' ? TEXTS[language][value.text] : String(value);
  });
}
