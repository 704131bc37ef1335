import type { Messages } from '../../i18n/languages';

export const messages: Messages = {
  en: {
    title: 'Favorites',
    remove: 'Remove from favorites',
    remove_of: 'Remove from favorites: {{title}}',
    removed: 'Removed “{{title}}” from favorites.',
    empty: 'You have no favorite listings yet.',
    no_photo: 'No photo',
    listings: 'Favorite listings',
  },
  ar: {
    title: 'المفضلة',
    remove: 'إزالة من المفضلة',
    remove_of: 'إزالة من المفضلة: {{title}}',
    removed: 'تمت إزالة «{{title}}» من المفضلة.',
    empty: 'لا توجد لديك عقارات مفضلة بعد.',
    no_photo: 'لا توجد صورة',
    listings: 'العقارات المفضلة',
  },
  es: {
    title: 'Favoritos',
    remove: 'Quitar de favoritos',
    remove_of: 'Quitar de favoritos: {{title}}',
    removed: 'Se quitó «{{title}}» de favoritos.',
    empty: 'Todavía no tienes inmuebles favoritos.',
    no_photo: 'Sin foto',
    listings: 'Inmuebles favoritos',
  },
  fr: {
    title: 'Favoris',
    remove: 'Retirer des favoris',
    remove_of: 'Retirer des favoris : {{title}}',
    removed: '« {{title}} » a été retiré des favoris.',
    empty: 'Vous n’avez pas encore d’annonce favorite.',
    no_photo: 'Pas de photo',
    listings: 'Annonces favorites',
  },
};
