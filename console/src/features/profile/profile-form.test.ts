import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AVATAR_MAX_BYTES,
  avatarProblem,
  emailChanged,
  passwordBody,
  profileChanges,
  type ProfileRecord,
  profileToForm,
} from './profile-form';

const profile: ProfileRecord = {
  user_id: 5,
  email: 'sam@example.com',
  username: 'sam',
  display_name: 'Sam',
  first_name: 'Sam',
  last_name: '',
  avatar_url: '',
  phone: '+1 555',
  mobile: '',
  whatsapp: '',
  bio: 'Hello',
  website: '',
  language: 'fr',
  role: 'seller',
  registered_date: '2026-11-01T00:00:00Z',
  properties_count: '0',
  favorites: '0',
  agent_id: null,
  agency_id: null,
  status: 'active',
};

describe('profile form', () => {
  it('fills every field from the profile, empty when absent', () => {
    const values = profileToForm(profile);
    expect(values.first_name).toBe('Sam');
    expect(values.language).toBe('fr');
    expect(values.current_password).toBe('');
    expect(profileToForm(undefined).email).toBe('');
  });

  it('sends nothing when nothing changed', () => {
    expect(profileChanges(profileToForm(profile), profile)).toEqual({});
  });

  it('sends only changed fields, trimmed; clearing a field sends ""', () => {
    const values = { ...profileToForm(profile), display_name: '  Sam S ', phone: '', website: 'https://sam.example' };
    expect(profileChanges(values, profile)).toEqual({ display_name: 'Sam S', phone: '', website: 'https://sam.example' });
  });

  it('sends the current password with a new e-mail address, even empty', () => {
    const values = { ...profileToForm(profile), email: 'New@Example.com' };
    expect(profileChanges(values, profile)).toEqual({ email: 'new@example.com', current_password: '' });
    expect(profileChanges({ ...values, current_password: 'secret' }, profile)).toEqual({
      email: 'new@example.com',
      current_password: 'secret',
    });
  });

  it('ignores a change of case of the same address', () => {
    expect(profileChanges({ ...profileToForm(profile), email: 'SAM@example.com' }, profile)).toEqual({});
    expect(emailChanged('SAM@example.com ', profile)).toBe(false);
    expect(emailChanged('other@example.com', profile)).toBe(true);
  });

  it('round-trips: the form of a profile changed by a body gives that body back', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (bio, whatsapp) => {
        const values = { ...profileToForm(profile), bio, whatsapp };
        const body = profileChanges(values, profile);
        const after = { ...profile, ...body };
        expect(profileChanges(profileToForm(after), after)).toEqual({});
        for (const key of Object.keys(body)) expect(['bio', 'whatsapp']).toContain(key);
      }),
    );
  });

  it('keeps the confirmation of a new password in the browser', () => {
    expect(passwordBody({ password: 'new password', confirm_password: 'new password', current_password: 'old' })).toEqual({
      password: 'new password',
      current_password: 'old',
    });
  });
});

describe('avatar', () => {
  it('accepts JPEG, PNG and WebP up to 10 MiB', () => {
    expect(avatarProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(avatarProblem({ type: 'image/webp', size: AVATAR_MAX_BYTES })).toBeNull();
    expect(avatarProblem({ type: 'image/gif', size: 10 })).toBe('type');
    expect(avatarProblem({ type: '', size: 10 })).toBe('type');
    expect(avatarProblem({ type: 'image/jpeg', size: AVATAR_MAX_BYTES + 1 })).toBe('size');
  });
});
