/** The own profile (docs/api.md 3.1) and the pure mapping between it, the profile form and PUT /users/profile. */
import type { Schemas } from '@realty-api/client';

export type ProfileRecord = Schemas['UserProfile'];

/** The fields of the profile form, all text; `current_password` is asked only when the e-mail changes. */
const PROFILE_FIELDS = [
  'first_name',
  'last_name',
  'display_name',
  'email',
  'phone',
  'mobile',
  'whatsapp',
  'bio',
  'website',
  'language',
] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileFormValues = Record<ProfileField, string> & { current_password: string };

export const PROFILE_LANGUAGES = ['', 'en', 'ar', 'es', 'fr'] as const;

export function profileToForm(profile: Partial<ProfileRecord> | undefined): ProfileFormValues {
  const values = { current_password: '' } as ProfileFormValues;
  for (const field of PROFILE_FIELDS) values[field] = String(profile?.[field] ?? '');
  return values;
}

export type ProfileBody = Partial<Record<ProfileField | 'current_password', string>>;

/**
 * The body of PUT /users/profile: only the fields that differ from the profile as loaded (omitted fields stay
 * unchanged), trimmed; `current_password` goes with an e-mail change, even empty, so that the API's answer
 * about it lands on its field.
 */
export function profileChanges(values: ProfileFormValues, original: Partial<ProfileRecord> | undefined): ProfileBody {
  const before = profileToForm(original);
  const body: ProfileBody = {};
  for (const field of PROFILE_FIELDS) {
    const value = values[field].trim();
    if (value !== before[field]) body[field] = field === 'email' ? value.toLowerCase() : value;
  }
  if (body.email !== undefined && body.email === before.email.toLowerCase()) delete body.email;
  if (body.email !== undefined) body.current_password = values.current_password;
  return body;
}

/** Whether the e-mail field now differs from the stored address (the form then asks for the current password). */
export function emailChanged(value: string, original: Partial<ProfileRecord> | undefined): boolean {
  return value.trim().toLowerCase() !== String(original?.email ?? '').toLowerCase();
}

export interface PasswordFormValues {
  password: string;
  confirm_password: string;
  current_password: string;
}

/** PUT /users/profile for a new password; the confirmation stays in the browser. */
export function passwordBody(values: PasswordFormValues): { password: string; current_password: string } {
  return { password: values.password, current_password: values.current_password };
}

export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** docs/api.md 0.6: one uploaded file at most 10 MiB. */
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

/** Why a chosen file cannot be an avatar before sending it ('type', 'size'), or null when it may be sent. */
export function avatarProblem(file: Pick<File, 'type' | 'size'>): 'type' | 'size' | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > AVATAR_MAX_BYTES) return 'size';
  return null;
}
