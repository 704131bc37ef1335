import type { Messages } from '../../i18n/languages';

export const messages: Messages = {
  en: {
    title: 'Notifications',
    show: 'Show',
    unread: 'Unread',
    read: 'Read',
    mark_read: 'Mark read',
    mark_all_read: 'Mark all read',
    new_badge: 'new',
    received: 'Received',
  },
  ar: {
    title: 'الإشعارات',
    show: 'عرض',
    unread: 'غير مقروءة',
    read: 'مقروءة',
    mark_read: 'تعليم كمقروء',
    mark_all_read: 'تعليم الكل كمقروء',
    new_badge: 'جديد',
    received: 'وصل في',
  },
  es: {
    title: 'Notificaciones',
    show: 'Mostrar',
    unread: 'Sin leer',
    read: 'Leídas',
    mark_read: 'Marcar como leída',
    mark_all_read: 'Marcar todas como leídas',
    new_badge: 'nueva',
    received: 'Recibida',
  },
  fr: {
    title: 'Notifications',
    show: 'Afficher',
    unread: 'Non lues',
    read: 'Lues',
    mark_read: 'Marquer comme lue',
    mark_all_read: 'Tout marquer comme lu',
    new_badge: 'nouveau',
    received: 'Reçue',
  },
};
