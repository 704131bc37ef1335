import type { NotificationType } from '../../../db/schema/index.js';
import { fillPlaceholders, type Language, type MessageParams } from '../../../i18n/index.js';

/**
 * The words around a notification's e-mail (notification-mail.ts): greeting, links, footer, and a label per
 * notification type for the footer's “Unsubscribe from <label> e-mails”. The title and message themselves are
 * the notification's own (notification-texts.ts), written in the recipient's language when it was created.
 */
const TEXTS = {
  en: {
    greeting: 'Hello {name},',
    listing_link: 'View the listing',
    listing_link_text: 'View the listing: {url}',
    digest_heading: 'Listings:',
    digest_more: '… and {count} more',
    footer_reason: 'You get this e-mail because {type} e-mails are turned on for your account.',
    unsubscribe_link: 'Unsubscribe from {type} e-mails',
    unsubscribe_text: 'Unsubscribe from {type} e-mails: {url}',
  },
  ar: {
    greeting: 'مرحبًا {name}،',
    listing_link: 'عرض الإعلان',
    listing_link_text: 'عرض الإعلان: {url}',
    digest_heading: 'الإعلانات:',
    digest_more: '… و{count} غيرها',
    footer_reason: 'تصلك هذه الرسالة لأن رسائل {type} مفعّلة في حسابك.',
    unsubscribe_link: 'إلغاء الاشتراك في رسائل {type}',
    unsubscribe_text: 'إلغاء الاشتراك في رسائل {type}: {url}',
  },
  es: {
    greeting: 'Hola, {name}:',
    listing_link: 'Ver el anuncio',
    listing_link_text: 'Ver el anuncio: {url}',
    digest_heading: 'Anuncios:',
    digest_more: '… y {count} más',
    footer_reason: 'Recibes este correo porque los correos de {type} están activados en tu cuenta.',
    unsubscribe_link: 'Darte de baja de los correos de {type}',
    unsubscribe_text: 'Darte de baja de los correos de {type}: {url}',
  },
  fr: {
    greeting: 'Bonjour {name},',
    listing_link: 'Voir l’annonce',
    listing_link_text: 'Voir l’annonce : {url}',
    digest_heading: 'Annonces :',
    digest_more: '… et {count} de plus',
    footer_reason: 'Vous recevez cet e-mail parce que les e-mails « {type} » sont activés pour votre compte.',
    unsubscribe_link: 'Se désabonner des e-mails « {type} »',
    unsubscribe_text: 'Se désabonner des e-mails « {type} » : {url}',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** What each type of e-mail is called in the footer's unsubscribe line. */
const TYPE_LABELS = {
  en: {
    property_approved: 'listing approval',
    property_disapproved: 'listing rejection',
    property_expired: 'listing expiry',
    new_lead: 'new inquiry',
    new_review: 'new review',
    saved_search_match: 'saved search alert',
    membership_activated: 'membership activation',
    membership_expiring: 'membership reminder',
    membership_expired: 'membership end',
    payment_received: 'payment receipt',
    system: 'announcement',
  },
  ar: {
    property_approved: 'الموافقة على الإعلانات',
    property_disapproved: 'رفض الإعلانات',
    property_expired: 'انتهاء صلاحية الإعلانات',
    new_lead: 'الاستفسارات الجديدة',
    new_review: 'التقييمات الجديدة',
    saved_search_match: 'تنبيهات البحث المحفوظ',
    membership_activated: 'تفعيل العضوية',
    membership_expiring: 'تذكيرات العضوية',
    membership_expired: 'انتهاء العضوية',
    payment_received: 'إيصالات الدفع',
    system: 'إشعارات الإدارة',
  },
  es: {
    property_approved: 'aprobación de anuncios',
    property_disapproved: 'rechazo de anuncios',
    property_expired: 'caducidad de anuncios',
    new_lead: 'nuevas consultas',
    new_review: 'nuevas reseñas',
    saved_search_match: 'alertas de búsquedas guardadas',
    membership_activated: 'activación de membresía',
    membership_expiring: 'avisos de membresía',
    membership_expired: 'fin de membresía',
    payment_received: 'pagos recibidos',
    system: 'avisos del sistema',
  },
  fr: {
    property_approved: 'approbation d’annonce',
    property_disapproved: 'refus d’annonce',
    property_expired: 'expiration d’annonce',
    new_lead: 'nouvelle demande',
    new_review: 'nouvel avis',
    saved_search_match: 'alerte de recherche enregistrée',
    membership_activated: 'activation d’abonnement',
    membership_expiring: 'rappel d’abonnement',
    membership_expired: 'fin d’abonnement',
    payment_received: 'paiement reçu',
    system: 'message du site',
  },
} as const satisfies Record<Language, Record<NotificationType, string>>;

export type NotificationMailTextKey = keyof (typeof TEXTS)['en'];

/**
 * A text of the notification e-mail in a language, with `{name}` placeholders filled. With `escape` (the HTML
 * part), the template's own words and every value are escaped alike; placeholders contain nothing it changes.
 */
export function notificationMailText(
  language: Language,
  key: NotificationMailTextKey,
  params: MessageParams = {},
  escape: (text: string) => string = (text) => text,
): string {
  return fillPlaceholders(escape(TEXTS[language][key]), (name) => (name in params ? escape(String(params[name])) : undefined));
}

/** The name of a type of e-mail, as the footer's unsubscribe line uses it. */
export function notificationTypeLabel(language: Language, type: NotificationType): string {
  return TYPE_LABELS[language][type];
}
