import type { Schemas } from '@realty-api/client';
import { type HttpError, useGetIdentity, useOne } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { FormProvider, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Identity } from '../../../api/session';
import { Field } from '../../../components/ui';
import { LISTINGS_RESOURCE } from '../resources';
import { AREA_UNITS, type ListingRecord } from '../types';
import { AgentsPicker } from './AgentsPicker';
import { FormSection, SelectInput, TextInput, useFieldError } from './fields';
import { emptyFormValues, type ListingFormValues, toFormValues, toRequestBody } from './form-values';
import { GalleryEditor } from './GalleryEditor';
import { LocationMap } from './LocationMap';
import { LocationPicker } from './LocationPicker';
import { AdditionalFeatures, FloorPlans } from './RepeatableRows';
import { missingForSubmission } from './submission';
import { TermPicker } from './TermPickers';

/**
 * Every field of the create/update body (docs/api.md 4.6) in sections. A new listing is created as a draft
 * or submitted at once (the API decides between pending and publish); an existing one is saved as it is, in
 * its state. The API's field errors show beside their fields; anything else above the buttons.
 */
export function ListingForm({ record, onSaved }: { record?: ListingRecord; onSaved: (saved: ListingRecord, created: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const creating = record === undefined;
  const [saveError, setSaveError] = useState<HttpError | null>(null);
  const [savedNote, setSavedNote] = useState('');
  // "Price on request": a published listing without a price is one; a new one says so by this box.
  const [priceOnRequest, setPriceOnRequest] = useState(record !== undefined && record.price === null && record.status !== 'draft');
  // The fields the site's administrator requires before a submission (GET /site-settings, public).
  const { result: siteSettings } = useOne<Pick<Schemas['SiteSettings'], 'submission_fields'>>({ resource: 'site-settings', id: 'current' });
  const siteFields = siteSettings?.submission_fields ?? [];

  const form = useForm<ListingRecord, HttpError, ListingFormValues>({
    defaultValues: record ? toFormValues(record) : emptyFormValues({ agentId: identity?.agent_id ?? null }),
    mode: 'onSubmit',
    refineCoreProps: {
      resource: LISTINGS_RESOURCE,
      action: creating ? 'create' : 'edit',
      ...(record ? { id: record.id } : {}),
      redirect: false,
      // The page has read the record already (and shows its state and gallery): the form starts from it.
      queryOptions: { enabled: false },
      successNotification: false,
      errorNotification: false,
      onMutationError: (error) => setSaveError(error),
      onMutationSuccess: (answer) => {
        const saved = answer.data as ListingRecord;
        setSaveError(null);
        if (!creating) {
          form.reset(toFormValues(saved));
          setSavedNote(t('listings.saved_at', { time: new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date()) }));
        }
        onSaved(saved, creating);
      },
    },
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
    refineCore: { formLoading },
  } = form;

  // Photos still uploading when the listing is saved join the gallery first, so none is left behind.
  const uploads = useRef<Promise<void>>(Promise.resolve());
  const [waitingForUploads, setWaitingForUploads] = useState(false);
  const trackUploads = (done: Promise<void>) => {
    uploads.current = Promise.all([uploads.current, done]).then(() => undefined);
  };

  const save = (draft: boolean) => async (event?: FormEvent) => {
    event?.preventDefault();
    setWaitingForUploads(true);
    await uploads.current;
    setWaitingForUploads(false);
    // A new listing submitted at once is checked before it is sent (a draft is submitted from the moves panel).
    if (!draft && creating) {
      const missing = missingForSubmission(form.getValues(), siteFields, priceOnRequest);
      if (missing.length > 0) {
        form.clearErrors();
        // The gallery shows the API's `media_ids` errors: the same name here.
        for (const field of missing)
          form.setError((field === 'gallery' ? 'media_ids' : field) as never, { message: t('listings.required_to_submit') });
        setSaveError(null);
        setSavedNote(t('listings.fill_to_submit'));
        form.setFocus(missing[0] === 'gallery' ? 'title' : missing[0]!);
        return;
      }
    }
    await handleSubmit(async (values) => {
      setSavedNote('');
      setSaveError(null);
      const body = toRequestBody(values, { mode: creating ? 'create' : 'update', draft });
      // Refine hands these to the data provider as they are: the body of 4.6, not the form's own shape.
      await form.refineCore.onFinish(body as unknown as ListingFormValues).catch(() => undefined);
    })();
  };

  const busy = isSubmitting || formLoading || waitingForUploads;
  const unitOptions = AREA_UNITS.map((unit) => ({ value: unit, label: t(`listings.unit_${unit}`) }));

  return (
    <FormProvider {...form}>
      <form
        className="listings-form stack"
        noValidate
        onSubmit={(event) => void save(false)(event)}
        aria-label={t(creating ? 'listings.new_listing' : 'listings.edit_listing')}
      >
        <FormSection title={t('listings.section_basics')}>
          <TextInput
            name="title"
            label={t('listings.title')}
            required
            maxLength={200}
            rules={{
              validate: (value) => (typeof value === 'string' && value.trim().length >= 3) || t('listings.title_too_short'),
            }}
          />
          <Description />
          <TextInput name="reference" label={t('listings.reference')} maxLength={200} hint={t('listings.reference_hint')} />
        </FormSection>

        <FormSection title={t('listings.section_price')}>
          <div className="listings-grid">
            <TextInput name="price" label={t('listings.price')} type="number" readOnly={priceOnRequest} />
            <label className="listings-check">
              <input
                type="checkbox"
                checked={priceOnRequest}
                onChange={(event) => {
                  setPriceOnRequest(event.target.checked);
                  if (event.target.checked) form.setValue('price', '', { shouldDirty: true });
                }}
              />
              <span>{t('common.price_on_request')}</span>
            </label>
            <TextInput name="second_price" label={t('listings.second_price')} type="number" />
            <CurrencySelect />
            <TextInput name="price_prefix" label={t('listings.price_prefix')} maxLength={50} />
            <TextInput name="price_postfix" label={t('listings.price_postfix')} maxLength={50} hint={t('listings.price_postfix_hint')} />
          </div>
        </FormSection>

        <FormSection title={t('listings.section_details')}>
          <div className="listings-grid">
            <TextInput name="bedrooms" label={t('listings.bedrooms')} type="integer" />
            <TextInput name="bathrooms" label={t('listings.bathrooms')} type="integer" />
            <TextInput name="rooms" label={t('listings.rooms')} type="integer" />
            <TextInput name="garage" label={t('listings.garage')} type="integer" />
            <TextInput name="garage_size" label={t('listings.garage_size')} maxLength={50} />
            <TextInput name="year_built" label={t('listings.year_built')} type="integer" min={1000} />
            <TextInput name="size" label={t('listings.size')} type="number" />
            <SelectInput name="size_unit" label={t('listings.size_unit')} options={unitOptions} />
            <TextInput name="land_size" label={t('listings.land_size')} type="number" />
            <SelectInput name="land_size_unit" label={t('listings.land_size_unit')} options={unitOptions} />
          </div>
        </FormSection>

        <FormSection title={t('listings.section_terms')}>
          <div className="listings-terms">
            <TermPicker kind="types" />
            <TermPicker kind="statuses" />
            <TermPicker kind="labels" />
          </div>
          <TermPicker kind="features" />
        </FormSection>

        <FormSection title={t('listings.section_location')}>
          <LocationPicker />
          <div className="listings-grid">
            <TextInput name="address" label={t('listings.address')} maxLength={500} className="listings-wide" />
            <TextInput name="zipcode" label={t('listings.zipcode')} maxLength={20} />
          </div>
          <LocationMap />
        </FormSection>

        <FormSection title={t('listings.section_gallery')}>
          <GalleryEditor onUploads={trackUploads} />
        </FormSection>

        <FormSection title={t('listings.section_media')}>
          <div className="listings-grid">
            <TextInput name="video_url" label={t('listings.video_url')} type="url" maxLength={2000} hint={t('listings.url_hint')} />
            <TextInput name="virtual_tour" label={t('listings.virtual_tour')} type="url" maxLength={2000} hint={t('listings.url_hint')} />
          </div>
        </FormSection>

        <FormSection title={t('listings.section_floor_plans')}>
          <FloorPlans />
        </FormSection>

        <FormSection title={t('listings.section_additional_features')}>
          <AdditionalFeatures />
        </FormSection>

        <FormSection title={t('listings.section_agents')}>
          <AgentsPicker current={record?.agents ?? []} />
        </FormSection>

        {saveError ? <SaveError error={saveError} /> : null}
        <p role="status" className="notice-inline">
          {busy ? t('common.saving') : savedNote}
        </p>
        <div className="row listings-actions">
          {creating ? (
            <>
              <button type="button" onClick={() => void save(true)()} disabled={busy}>
                {t('listings.save_draft')}
              </button>
              <button type="submit" className="primary" disabled={busy}>
                {t('listings.create')}
              </button>
            </>
          ) : (
            <button type="submit" className="primary" disabled={busy}>
              {t('listings.save_changes')}
            </button>
          )}
        </div>
      </form>
    </FormProvider>
  );
}

function Description() {
  const { t } = useTranslation();
  const errorOf = useFieldError();
  const { register } = useFormContext<ListingFormValues>();
  return (
    <Field label={t('listings.description')} error={errorOf('description')} hint={t('listings.description_hint')}>
      {(props) => <textarea {...props} rows={6} maxLength={20_000} {...register('description')} />}
    </Field>
  );
}

/** The API's refusal of a save: its message, and each field's problem (some, like the gallery's, have no input). */
function SaveError({ error }: { error: HttpError }) {
  const { t } = useTranslation();
  const fields = Object.entries((error.errors ?? {}) as Record<string, unknown>).filter(([, message]) => typeof message === 'string');
  return (
    <div className="notice notice-error listings-save-error" role="alert">
      <strong>{t('listings.not_saved')}</strong>
      <span>{error.message}</span>
      {fields.length > 0 ? (
        <ul>
          {fields.map(([field, message]) => (
            <li key={field}>
              <code>{field}</code>: {String(message)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** ISO 4217 codes, as this browser knows them; the listing's own code stays offered even when it is not one of them. */
function CurrencySelect() {
  const { t, i18n } = useTranslation();
  const { watch } = useFormContext<ListingFormValues>();
  const current = watch('currency');
  const options = useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'currency' });
    const codes = new Set(Intl.supportedValuesOf('currency'));
    if (current) codes.add(current.toUpperCase());
    return [
      { value: '', label: t('listings.currency_default') },
      ...[...codes].sort().map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` })),
    ];
  }, [i18n.language, current, t]);
  return <SelectInput name="currency" label={t('listings.currency')} options={options} />;
}
