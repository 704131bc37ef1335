import { type HttpError, useCustomMutation } from '@refinedev/core';
import { type ChangeEvent, type DragEvent, useId, useRef, useState } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { MediaRecord } from '../types';
import { useFieldError } from './fields';
import { type GalleryItem, type ListingFormValues, toGalleryItem } from './form-values';
import { isPhotoFile, keepFeatured, moveItem, PHOTO_TYPES } from './gallery';

interface Upload {
  key: number;
  name: string;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  message?: string;
}

/** The internal drag type of a photo being reordered (files dragged in from outside carry "Files"). */
const REORDER_TYPE = 'application/x-listings-photo';

/**
 * The listing's photos: files dropped on the zone or chosen with the file input are uploaded one after the
 * other (POST /media/upload, field `file`) and join the gallery in order; each photo can move up or down
 * (buttons, or dragging), become the featured image, or leave the gallery. The gallery is part of the form:
 * saving the listing sends it as `media_ids` and `featured_image_id`.
 */
export function GalleryEditor({ onUploads }: { onUploads?: (done: Promise<void>) => void }) {
  const { t } = useTranslation();
  const { control, getValues, setValue } = useFormContext<ListingFormValues>();
  const { field: gallery } = useController({ control, name: 'gallery' });
  const { field: featured } = useController({ control, name: 'featured_image_id' });
  const errorOf = useFieldError();
  const { mutateAsync: upload } = useCustomMutation<MediaRecord>();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dropActive, setDropActive] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const nextKey = useRef(0);
  const inputId = useId();
  const items = (gallery.value as GalleryItem[] | undefined) ?? [];
  const featuredId = String(featured.value ?? '');

  const setItems = (next: GalleryItem[]) => {
    setValue('gallery', next, { shouldDirty: true });
    const kept = keepFeatured(
      String(getValues('featured_image_id') ?? ''),
      next.map((item) => item.id),
    );
    if (kept !== getValues('featured_image_id')) setValue('featured_image_id', kept, { shouldDirty: true });
  };

  const reasonOf = (error: unknown): string => {
    const status = (error as HttpError | undefined)?.statusCode;
    if (status === 415) return t('listings.upload_wrong_type');
    if (status === 413) return t('listings.upload_too_large');
    return (error as Error | undefined)?.message || t('common.error_title');
  };

  const addFiles = (files: File[]) => {
    if (files.length === 0) return;
    const done = uploadAll(files);
    onUploads?.(done);
  };

  const uploadAll = async (files: File[]) => {
    const queued = files.map((file) => ({ key: nextKey.current++, name: file.name, file }));
    setUploads((current) => [
      ...current.filter((item) => item.state === 'uploading' || item.state === 'waiting'),
      ...queued.map(({ key, name }) => ({ key, name, state: 'waiting' as const })),
    ]);
    const update = (key: number, change: Partial<Upload>) =>
      setUploads((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
    let added = 0;
    for (const { key, file } of queued) {
      if (!isPhotoFile(file)) {
        update(key, { state: 'failed', message: t('listings.upload_wrong_type') });
        continue;
      }
      update(key, { state: 'uploading' });
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
        const current = (getValues('gallery') as GalleryItem[] | undefined) ?? [];
        setItems([...current, toGalleryItem(answer.data)]);
        update(key, { state: 'done' });
        added += 1;
      } catch (error) {
        update(key, { state: 'failed', message: reasonOf(error) });
      }
    }
    setAnnouncement(t('listings.uploaded_count', { count: added, total: queued.length }));
  };

  const chooseFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    addFiles(files);
  };

  const onZoneDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDropActive(true);
  };
  const onZoneDrop = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDropActive(false);
    addFiles(Array.from(event.dataTransfer.files));
  };

  const move = (from: number, to: number) => {
    const next = moveItem(items, from, to);
    setItems(next);
    const moved = next.findIndex((item) => item.id === items[from]?.id);
    setAnnouncement(t('listings.photo_moved', { position: moved + 1, count: next.length }));
  };
  const remove = (index: number) => {
    setItems(items.filter((_, position) => position !== index));
    setAnnouncement(t('listings.photo_removed'));
  };

  const busy = uploads.some((item) => item.state === 'uploading' || item.state === 'waiting');
  const effectiveFeatured = featuredId !== '' ? featuredId : items[0] ? String(items[0].id) : '';
  const galleryError = errorOf('media_ids') ?? errorOf('featured_image_id');

  return (
    <div className="stack">
      <div
        className={dropActive ? 'listings-dropzone listings-dropzone-active' : 'listings-dropzone'}
        onDragOver={onZoneDragOver}
        onDragLeave={() => setDropActive(false)}
        onDrop={onZoneDrop}
        data-testid="gallery-dropzone"
      >
        <p>{t('listings.drop_here')}</p>
        <label htmlFor={inputId} className="listings-file-label">
          {t('listings.add_photos')}
        </label>
        <input id={inputId} type="file" accept={PHOTO_TYPES.join(',')} multiple onChange={chooseFiles} className="listings-file-input" />
        <small className="muted">{t('listings.photo_types')}</small>
      </div>

      {uploads.length > 0 ? (
        <ul className="listings-uploads" aria-label={t('listings.uploads')}>
          {uploads.map((item) => (
            <li key={item.key} className={item.state === 'failed' ? 'listings-upload-failed' : undefined}>
              <span className="listings-upload-name">{item.name}</span>{' '}
              {item.state === 'uploading' || item.state === 'waiting' ? (
                <progress aria-label={t('listings.uploading_named', { name: item.name })} />
              ) : null}{' '}
              <span>{t(`listings.upload_${item.state}`)}</span>
              {item.message ? <span>: {item.message}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <p role="status" className="visually-hidden">
        {busy ? t('listings.uploading') : announcement}
      </p>
      {galleryError ? (
        <p className="field-error" role="alert">
          {galleryError}
        </p>
      ) : null}

      {items.length === 0 ? (
        <p className="muted">{t('listings.no_photos')}</p>
      ) : (
        <ol className="listings-gallery" aria-label={t('listings.gallery')}>
          {items.map((item, index) => {
            const name = t('listings.photo_n', { position: index + 1, count: items.length });
            const isFeatured = effectiveFeatured === String(item.id);
            return (
              <li
                key={item.id}
                draggable
                className={dragging === index ? 'listings-photo listings-photo-dragging' : 'listings-photo'}
                onDragStart={(event) => {
                  event.dataTransfer.setData(REORDER_TYPE, String(index));
                  event.dataTransfer.effectAllowed = 'move';
                  setDragging(index);
                }}
                onDragEnd={() => setDragging(null)}
                onDragOver={(event) => {
                  if (event.dataTransfer.types.includes(REORDER_TYPE)) event.preventDefault();
                }}
                onDrop={(event) => {
                  const from = Number(event.dataTransfer.getData(REORDER_TYPE));
                  if (!event.dataTransfer.types.includes(REORDER_TYPE) || Number.isNaN(from)) return;
                  event.preventDefault();
                  setDragging(null);
                  move(from, index);
                }}
              >
                <div role="group" aria-label={name} className="listings-photo-body">
                  <img src={item.thumbnail} alt={item.alt || name} width={150} height={112} />
                  <span className="listings-photo-caption">
                    {name}
                    {isFeatured ? <span className="tag">{t('listings.featured_badge')}</span> : null}
                  </span>
                  <label>
                    <input type="radio" name="listings-featured" checked={isFeatured} onChange={() => featured.onChange(String(item.id))} />{' '}
                    {t('listings.featured_image')}
                  </label>
                  <div className="row">
                    <button type="button" onClick={() => move(index, index - 1)} disabled={index === 0}>
                      {t('listings.move_up')}
                    </button>
                    <button type="button" onClick={() => move(index, index + 1)} disabled={index === items.length - 1}>
                      {t('listings.move_down')}
                    </button>
                    <button type="button" className="danger" onClick={() => remove(index)}>
                      {t('listings.remove_photo')}
                    </button>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
