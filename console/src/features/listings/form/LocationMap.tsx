import { lazy, Suspense } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui';
import { TextInput } from './fields';
import type { ListingFormValues } from './form-values';

const PinMap = lazy(() => import('./PinMap'));

const asCoordinate = (text: string | undefined): number | null => {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
};

/** The pin of the listing: latitude and longitude inputs (the keyboard's way) and the map, kept in step. */
export function LocationMap() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<ListingFormValues>();
  const [latitude, longitude] = useWatch({ control, name: ['latitude', 'longitude'] });
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
        <PinMap latitude={asCoordinate(latitude)} longitude={asCoordinate(longitude)} onPick={pick} label={t('listings.map_label')} />
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
