import { useCustom } from '@refinedev/core';
import { lazy, Suspense } from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui';
import { TextInput } from './fields';
import type { ListingFormValues } from './form-values';
import { deepestPlace, type Level } from './places';
import type { TermRecord } from '../types';

const PinMap = lazy(() => import('./PinMap'));

const asCoordinate = (text: string | undefined): number | null => {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
};

const TAXONOMY: Record<Level, string> = {
  country: 'property_country',
  state: 'property_state',
  city: 'property_city',
  area: 'property_area',
};

/**
 * The centre of the deepest place chosen (GET /terms/{taxonomy}/{id}), where the map goes, with its zoom. Only
 * once a place is changed: the place a listing opens with does not move the map off its pin.
 */
function usePlaceFocus(): { latitude: number; longitude: number; zoom: number; key: string } | null {
  const { control } = useFormContext<ListingFormValues>();
  const [country = '', state = '', city = '', area = ''] = useWatch({ control, name: ['country', 'state', 'city', 'area'] });
  const { dirtyFields } = useFormState({ control, name: ['country', 'state', 'city', 'area'] });
  const changed = Boolean(dirtyFields.country || dirtyFields.state || dirtyFields.city || dirtyFields.area);
  const place = changed ? deepestPlace({ country, state, city, area }) : null;
  const { result } = useCustom<TermRecord>({
    url: place ? `/terms/${TAXONOMY[place.level]}/${place.id}` : '/terms/property_country/1',
    method: 'get',
    queryOptions: { enabled: place !== null, staleTime: 60_000 },
    errorNotification: false,
  });
  const center = place ? result?.data?.center : undefined;
  if (!place || !center || result?.data?.id !== place.id) return null;
  return { ...center, zoom: place.zoom, key: `${place.level}:${place.id}` };
}

/** The pin of the listing: latitude and longitude inputs (the keyboard's way) and the map, kept in step. */
export function LocationMap() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<ListingFormValues>();
  const [latitude, longitude] = useWatch({ control, name: ['latitude', 'longitude'] });
  const focus = usePlaceFocus();
  const pick = (lat: number, lng: number) => {
    setValue('latitude', String(lat), { shouldDirty: true, shouldValidate: true });
    setValue('longitude', String(lng), { shouldDirty: true, shouldValidate: true });
  };
  const clear = () => {
    setValue('latitude', '', { shouldDirty: true });
    setValue('longitude', '', { shouldDirty: true });
  };
  const pinned = asCoordinate(latitude) !== null && asCoordinate(longitude) !== null;
  return (
    <div className="stack">
      <p className="muted" id="listings-map-help">
        {t('listings.map_help')}
      </p>
      <Suspense fallback={<Loading />}>
        <PinMap
          latitude={asCoordinate(latitude)}
          longitude={asCoordinate(longitude)}
          focus={focus}
          onPick={pick}
          label={t('listings.map_label')}
        />
      </Suspense>
      <div className="listings-grid">
        <TextInput
          name="latitude"
          label={t('listings.latitude')}
          type="number"
          min={-90}
          max={90}
          rules={{ min: { value: -90, message: t('listings.latitude_range') }, max: { value: 90, message: t('listings.latitude_range') } }}
        />
        <TextInput
          name="longitude"
          label={t('listings.longitude')}
          type="number"
          min={-180}
          max={180}
          rules={{
            min: { value: -180, message: t('listings.longitude_range') },
            max: { value: 180, message: t('listings.longitude_range') },
          }}
        />
      </div>
      <p role="status" className="muted">
        {pinned ? t('listings.pin_at', { latitude, longitude }) : t('listings.no_pin')}
      </p>
      {pinned ? (
        <div>
          <button type="button" onClick={clear}>
            {t('listings.remove_pin')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
