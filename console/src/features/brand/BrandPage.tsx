import { type HttpError, useCustomMutation } from '@refinedev/core';
import { useForm } from '@refinedev/react-hook-form';
import { type ChangeEvent, type CSSProperties, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice, Field, Forbidden, isForbidden, Loading, PageHeader } from '../../components/ui';
import {
  accentCheck,
  type BrandFormValues,
  type BrandPicture,
  brandChanges,
  brandToForm,
  type ColourCheck,
  HEX_COLOUR,
  isPictureFile,
  moveRow,
  PICTURE_TYPES,
  previewColour,
  primaryCheck,
  ratioText,
  type SectionRow,
  sectionRows,
  type SiteSettingsRecord,
  type UploadedMedia,
  uploadedPicture,
} from './brand';
import './brand.css';

const NO_PICTURE: BrandPicture = { id: null, url: null };

/** The public website's brand (PUT /site-settings), with a live preview of its name, colours and pictures. */
export default function BrandPage() {
  const { t } = useTranslation();
  const [saved, setSaved] = useState<'saved' | 'unchanged' | null>(null);
  const [rows, setRows] = useState<SectionRow[]>(sectionRows(undefined));
  const [logo, setLogo] = useState<BrandPicture>(NO_PICTURE);
  const [hero, setHero] = useState<BrandPicture>(NO_PICTURE);
  const {
    refineCore: { query, onFinish, formLoading, mutation },
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors },
  } = useForm<SiteSettingsRecord, HttpError, BrandFormValues>({
    defaultValues: brandToForm(undefined),
    refineCoreProps: {
      resource: 'site-settings',
      action: 'edit',
      id: 'current',
      redirect: false,
      successNotification: false,
      errorNotification: false,
    },
    warnWhenUnsavedChanges: false,
  });
  const record = query?.data?.data;

  // The record as loaded (and again after a save): its sections and pictures.
  useEffect(() => {
    if (!record) return;
    setRows(sectionRows(record.home_sections));
    setLogo({ id: record.logo_id, url: record.logo_url });
    setHero({ id: record.hero_image_id, url: record.hero_image_url });
  }, [record]);

  if (query?.isLoading) return <Loading />;
  if (isForbidden(query?.error)) return <Forbidden />;

  const primary = watch('primary_color') ?? '';
  const accent = watch('accent_color') ?? '';
  const primaryResult = primaryCheck(primary.trim());
  const accentResult = accentCheck(accent.trim());
  const errorOf = (field: string) => (errors as Record<string, { message?: string } | undefined>)[field]?.message;
  const error = mutation.error;
  const unshown = error && Object.keys(error.errors ?? {}).some((field) => !SHOWN_FIELDS.includes(field));

  const submit = handleSubmit(async (values) => {
    setSaved(null);
    const body = brandChanges(values, rows, { logo_id: logo.id, hero_image_id: hero.id }, record);
    if (Object.keys(body).length === 0) {
      setSaved('unchanged');
      return;
    }
    try {
      await onFinish(body as unknown as BrandFormValues);
      setSaved('saved');
    } catch {
      // The API's field messages are on their fields; the rest shows below the form.
    }
  });

  const colourField = (name: 'primary_color' | 'accent_color', result: ColourCheck | null, tooLow: string) => (
    <div className="brand-colour">
      <Field
        label={t(`brand.${name}`)}
        error={errorOf(name)}
        hint={t(name === 'primary_color' ? 'brand.primary_hint' : 'brand.accent_hint')}
      >
        {(props) => (
          <input
            {...props}
            className="brand-colour-text"
            dir="ltr"
            spellCheck={false}
            maxLength={7}
            {...register(name, {
              required: t('brand.required'),
              pattern: { value: HEX_COLOUR, message: t('brand.colour_format') },
              validate: (value) =>
                (name === 'primary_color' ? primaryCheck(value.trim()) : accentCheck(value.trim()))?.ok !== false || tooLow,
            })}
          />
        )}
      </Field>
      <input
        type="color"
        className="brand-colour-picker"
        aria-label={t('brand.pick_colour', { name: t(`brand.${name}`) })}
        value={previewColour(watch(name) ?? '', record?.[name] ?? '#000000')}
        onChange={(event) => setValue(name, event.target.value, { shouldDirty: true, shouldValidate: true })}
      />
      {result ? <ContrastList result={result} /> : null}
    </div>
  );

  return (
    <section className="brand-page">
      <PageHeader title={t('brand.title')}>
        <a href="/" target="_blank" rel="noopener">
          {t('brand.open_site')}
        </a>
      </PageHeader>
      <p className="muted">{t('brand.intro')}</p>
      <ErrorNotice error={query?.error} onRetry={() => void query?.refetch()} />
      <div className="brand-grid">
        <form className="stack" onSubmit={(event) => void submit(event)} noValidate aria-label={t('brand.title')}>
          <fieldset className="card stack brand-fieldset">
            <legend>{t('brand.identity')}</legend>
            <Field label={t('brand.site_name')} error={errorOf('site_name')}>
              {(props) => <input {...props} maxLength={100} {...register('site_name', { required: t('brand.required') })} />}
            </Field>
            <Field label={t('brand.tagline')} error={errorOf('tagline')} hint={t('brand.tagline_hint')}>
              {(props) => <input {...props} maxLength={200} {...register('tagline')} />}
            </Field>
          </fieldset>

          <fieldset className="card stack brand-fieldset">
            <legend>{t('brand.colours')}</legend>
            {colourField('primary_color', primaryResult, t('brand.primary_too_light'))}
            {colourField('accent_color', accentResult, t('brand.accent_unreadable'))}
          </fieldset>

          <fieldset className="card stack brand-fieldset">
            <legend>{t('brand.pictures')}</legend>
            <PictureField label={t('brand.logo')} picture={logo} size="medium" onChange={setLogo} error={errorOf('logo_id')} />
            <PictureField label={t('brand.hero')} picture={hero} size="large" onChange={setHero} error={errorOf('hero_image_id')} />
          </fieldset>

          <fieldset className="card stack brand-fieldset">
            <legend>{t('brand.contact')}</legend>
            <p className="muted">{t('brand.contact_hint')}</p>
            <Field label={t('brand.contact_email')} error={errorOf('contact_email')}>
              {(props) => <input {...props} type="email" dir="ltr" maxLength={254} {...register('contact_email')} />}
            </Field>
            <Field label={t('brand.contact_phone')} error={errorOf('contact_phone')}>
              {(props) => <input {...props} type="tel" dir="ltr" maxLength={40} {...register('contact_phone')} />}
            </Field>
            <Field label={t('brand.contact_address')} error={errorOf('contact_address')}>
              {(props) => <input {...props} maxLength={300} {...register('contact_address')} />}
            </Field>
          </fieldset>

          <fieldset className="card stack brand-fieldset">
            <legend>{t('brand.sections')}</legend>
            <p className="muted">{t('brand.sections_hint')}</p>
            <SectionsEditor rows={rows} onChange={setRows} />
            {errorOf('home_sections') ? <p className="field-error">{errorOf('home_sections')}</p> : null}
          </fieldset>

          {error && (unshown || Object.keys(error.errors ?? {}).length === 0) ? <ErrorNotice error={error} /> : null}
          <div className="row">
            <button type="submit" className="primary" disabled={formLoading}>
              {formLoading ? t('common.saving') : t('brand.save')}
            </button>
          </div>
          <div role="status">
            {saved === 'saved' ? <p className="notice notice-ok">{t('brand.saved')}</p> : null}
            {saved === 'unchanged' ? <p className="muted">{t('brand.nothing_changed')}</p> : null}
          </div>
        </form>

        <BrandPreview
          name={watch('site_name') ?? ''}
          tagline={watch('tagline') ?? ''}
          primary={previewColour(primary, record?.primary_color ?? '#1f5f8b')}
          accent={previewColour(accent, record?.accent_color ?? '#e07a1f')}
          logo={logo.url}
          hero={hero.url}
          contact={[watch('contact_address'), watch('contact_phone'), watch('contact_email')].filter((line): line is string =>
            Boolean(line?.trim()),
          )}
        />
      </div>
    </section>
  );
}

const SHOWN_FIELDS = [
  'site_name',
  'tagline',
  'primary_color',
  'accent_color',
  'contact_email',
  'contact_phone',
  'contact_address',
  'logo_id',
  'hero_image_id',
  'home_sections',
];

function ContrastList({ result }: { result: ColourCheck }) {
  const { t } = useTranslation();
  return (
    <ul className="brand-contrast">
      {result.checks.map((check) => {
        const ok = check.ratio >= check.minimum;
        return (
          <li key={check.against} className={ok ? 'brand-contrast-ok' : 'brand-contrast-low'}>
            <span className="tag">{ok ? t('brand.contrast_ok') : t('brand.contrast_low')}</span>{' '}
            {t(`brand.against_${check.against}`, { ratio: ratioText(check.ratio), minimum: check.minimum })}
          </li>
        );
      })}
    </ul>
  );
}

/** A picture of the brand: the current one, a file to upload in its place, and a way to remove it. */
function PictureField({
  label,
  picture,
  size,
  onChange,
  error,
}: {
  label: string;
  picture: BrandPicture;
  size: 'medium' | 'large';
  onChange: (picture: BrandPicture) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { mutateAsync: upload, mutation } = useCustomMutation<UploadedMedia>();
  const [problem, setProblem] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const titleId = useId();

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setProblem(null);
    if (!isPictureFile(file)) {
      setProblem(t('brand.picture_type'));
      return;
    }
    const body = new FormData();
    body.append('file', file, file.name);
    try {
      const answer = await upload({
        url: '/media/upload',
        method: 'post',
        values: body as unknown as Record<string, never>,
        successNotification: false,
        errorNotification: false,
      });
      onChange(uploadedPicture(answer.data, size));
    } catch (failure) {
      setProblem((failure as HttpError).statusCode === 415 ? t('brand.picture_type') : (failure as HttpError).message);
    } finally {
      setInputKey((key) => key + 1);
    }
  };

  return (
    <div className="brand-picture" role="group" aria-labelledby={titleId}>
      <p className="brand-picture-title" id={titleId}>
        {label}
      </p>
      <div className="brand-picture-row">
        {picture.url ? (
          <img
            className={`brand-picture-image brand-picture-${size}`}
            src={picture.url}
            alt={t('brand.current_picture', { name: label })}
          />
        ) : (
          <span className="image-placeholder brand-picture-image">{t('brand.no_picture')}</span>
        )}
        <div className="stack">
          <Field label={t('brand.choose_picture')} error={problem ?? error} hint={t('brand.picture_hint')}>
            {(props) => (
              <input {...props} key={inputKey} type="file" accept={PICTURE_TYPES.join(',')} onChange={(event) => void choose(event)} />
            )}
          </Field>
          {mutation.isPending ? (
            <p className="muted" role="status">
              {t('brand.uploading')}
            </p>
          ) : null}
          {picture.id !== null ? (
            <div className="row">
              <button type="button" onClick={() => onChange(NO_PICTURE)}>
                {t('brand.remove_picture')}
              </button>
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}

function SectionsEditor({ rows, onChange }: { rows: SectionRow[]; onChange: (rows: SectionRow[]) => void }) {
  const { t } = useTranslation();
  return (
    <ol className="brand-sections">
      {rows.map((row, index) => {
        const name = t(`brand.section_${row.section}`);
        return (
          <li key={row.section} className={row.shown ? undefined : 'brand-section-hidden'}>
            <label className="row">
              <input
                type="checkbox"
                checked={row.shown}
                aria-label={t('brand.show_section', { name })}
                onChange={(event) => onChange(rows.map((other, at) => (at === index ? { ...other, shown: event.target.checked } : other)))}
              />
              <span>{name}</span>
            </label>
            <span className="brand-section-moves">
              <button
                type="button"
                aria-label={t('brand.move_up', { name })}
                disabled={index === 0}
                onClick={() => onChange(moveRow(rows, index, index - 1))}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={t('brand.move_down', { name })}
                disabled={index === rows.length - 1}
                onClick={() => onChange(moveRow(rows, index, index + 1))}
              >
                ↓
              </button>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** The website's frame and home banner as these settings would draw them (the site's own colours and rules). */
function BrandPreview({
  name,
  tagline,
  primary,
  accent,
  logo,
  hero,
  contact,
}: {
  name: string;
  tagline: string;
  primary: string;
  accent: string;
  logo: string | null;
  hero: string | null;
  contact: string[];
}) {
  const { t } = useTranslation();
  // Set through the CSSOM (the console's CSP allows no inline style attribute in the HTML, and needs none here).
  const colours = { '--preview-primary': primary, '--preview-accent': accent } as CSSProperties;
  return (
    <aside className="card stack brand-preview-card" aria-labelledby="brand-preview-title">
      <h2 id="brand-preview-title">{t('brand.preview')}</h2>
      <p className="muted">{t('brand.preview_hint')}</p>
      <div className="brand-preview" style={colours} data-testid="brand-preview">
        <div className="brand-preview-header">
          {logo ? <img className="brand-preview-logo" src={logo} alt="" /> : null}
          <strong className="brand-preview-name">{name.trim() || '—'}</strong>
        </div>
        <div className="brand-preview-hero">
          {hero ? <img className="brand-preview-hero-image" src={hero} alt="" /> : null}
          <p className="brand-preview-heading">{t('brand.preview_heading')}</p>
          {tagline.trim() ? <p className="brand-preview-tagline">{tagline}</p> : null}
          <span className="brand-preview-button">{t('brand.preview_search')}</span>
        </div>
        <div className="brand-preview-body">
          <span className="brand-preview-badge">{t('brand.preview_badge')}</span>
          <span className="brand-preview-link">{t('brand.preview_link')}</span>
          <span className="brand-preview-focus">{t('brand.preview_focus')}</span>
        </div>
        {contact.length > 0 ? (
          <div className="brand-preview-footer">
            {contact.map((line) => (
              <span key={line} dir="auto">
                {line}
              </span>
            ))}
          </div>
        ) : null}
      </div>
    </aside>
  );
}
