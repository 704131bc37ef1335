import { type HttpError, useCustomMutation, useDelete, useGetIdentity, useTable } from '@refinedev/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Identity, Role } from '../../api/session';
import { ConfirmQuestion } from '../../components/ConfirmButton';
import { Forbidden, isForbidden, PageHeader, Pager, QueryStatus, ScrollBox } from '../../components/ui';
import {
  actionsFor,
  fromCrudFilters,
  nameOf,
  ROLES,
  toCrudFilters,
  toggledStatus,
  type UserFilters,
  type UserRecord,
  USER_STATUSES,
  USERS_RESOURCE,
} from './users-logic';
import './users.css';
import { formatDate } from '../../format';

interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * Every account (administrators and managers): search, filter by role and status, page through. Administrators
 * also change a role, suspend or reactivate, and delete (after a confirmation); never their own account.
 */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount, filters, setFilters } = useTable<UserRecord>({
    resource: USERS_RESOURCE,
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    syncWithLocation: true,
    queryOptions: { retry: false },
  });
  const { mutate: put, mutation: putMutation } = useCustomMutation<UserRecord>();
  const { mutate: remove, mutation: removeMutation } = useDelete();
  const [form, setForm] = useState<UserFilters>(() => fromCrudFilters(filters));
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [roles, setRoles] = useState<Record<number, Role>>({});
  const busy = putMutation.isPending || removeMutation.isPending;
  const searchId = useId();
  const roleId = useId();
  const statusId = useId();

  const filterKey = JSON.stringify(fromCrudFilters(filters));
  useEffect(() => setForm(JSON.parse(filterKey) as UserFilters), [filterKey]);

  if (isForbidden(tableQuery.error)) return <Forbidden />;

  const administrator = identity?.role === 'administrator';
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(toCrudFilters(form), 'replace');
  };
  const clear = () => {
    setForm({ search: '', role: '', status: '' });
    setFilters([], 'replace');
  };
  const failed = (user: UserRecord) => (error: HttpError) =>
    setOutcome({ ok: false, text: t('users.failed', { name: nameOf(user), message: error.message, status: error.statusCode }) });
  const done = (text: string) => {
    setOutcome({ ok: true, text });
    void tableQuery.refetch();
  };

  const changeRole = (user: UserRecord) => {
    const role = roles[user.user_id] ?? user.role;
    setOutcome(null);
    put(
      { url: `/users/${user.user_id}/role`, method: 'put', values: { role }, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setRoles(({ [user.user_id]: _changed, ...others }) => others);
          done(t('users.role_changed', { name: nameOf(user), role: t(`common.role_${role}`) }));
        },
        onError: failed(user),
      },
    );
  };
  const changeStatus = (user: UserRecord) => {
    const status = toggledStatus(user.status);
    setOutcome(null);
    put(
      { url: `/users/${user.user_id}/status`, method: 'put', values: { status }, successNotification: false, errorNotification: false },
      {
        onSuccess: () => done(t(status === 'suspended' ? 'users.suspended_done' : 'users.reactivated_done', { name: nameOf(user) })),
        onError: failed(user),
      },
    );
  };
  const deleteUser = (user: UserRecord) => {
    setOutcome(null);
    remove(
      { resource: USERS_RESOURCE, id: user.user_id, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setConfirming(null);
          done(t('users.deleted', { name: nameOf(user) }));
        },
        onError: (error) => {
          setConfirming(null);
          failed(user)(error);
        },
      },
    );
  };

  return (
    <section>
      <PageHeader title={t('users.title')} />
      {!administrator ? <p className="muted">{t('users.read_only')}</p> : null}
      <form className="row users-filters" onSubmit={apply} role="search" aria-label={t('users.filters')}>
        <div className="field">
          <label htmlFor={searchId}>{t('users.search')}</label>
          <input
            id={searchId}
            type="search"
            value={form.search}
            maxLength={200}
            onChange={(event) => setForm({ ...form, search: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={roleId}>{t('users.role')}</label>
          <select id={roleId} value={form.role} onChange={(event) => setForm({ ...form, role: event.target.value })}>
            <option value="">{t('users.any_role')}</option>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`common.role_${role}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={statusId}>{t('users.status')}</label>
          <select id={statusId} value={form.status} onChange={(event) => setForm({ ...form, status: event.target.value })}>
            <option value="">{t('users.any_status')}</option>
            {USER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`users.status_${status}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary">
          {t('common.search')}
        </button>
        <button type="button" onClick={clear}>
          {t('common.clear')}
        </button>
      </form>

      <div role="status" className="users-live">
        {outcome?.ok ? <p className="notice notice-ok">{outcome.text}</p> : null}
      </div>
      <div role="alert" className="users-live">
        {outcome && !outcome.ok ? <p className="notice notice-error">{outcome.text}</p> : null}
      </div>
      <QueryStatus query={tableQuery} />
      {!tableQuery.isLoading && !tableQuery.error && result.data.length === 0 ? <p>{t('users.none')}</p> : null}

      {result.data.length > 0 ? (
        <ScrollBox label={t('users.title')}>
          <table className="data users-table">
            <caption className="visually-hidden">{t('users.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('users.name')}</th>
                <th scope="col">{t('users.role')}</th>
                <th scope="col">{t('users.status')}</th>
                <th scope="col">{t('users.registered')}</th>
                <th scope="col">{t('users.listings')}</th>
                {administrator ? <th scope="col">{t('common.actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {result.data.map((user) => {
                const name = nameOf(user);
                const { manage, self } = actionsFor(identity, user);
                const chosen = roles[user.user_id] ?? user.role;
                return (
                  <tr key={user.user_id}>
                    <th scope="row" className="users-name">
                      {name}
                      <div className="muted">
                        <bdi>@{user.username}</bdi>
                      </div>
                      <div className="users-email">
                        <bdi>{user.email}</bdi>
                      </div>
                    </th>
                    <td>{t(`common.role_${user.role}`, { defaultValue: user.role })}</td>
                    <td>
                      <span className={user.status === 'suspended' ? 'tag users-suspended' : 'tag'}>
                        {t(`users.status_${user.status}`, { defaultValue: user.status })}
                      </span>
                    </td>
                    <td>
                      <time dateTime={user.registered_date}>{formatDate(user.registered_date, i18n.language)}</time>
                    </td>
                    <td className="users-number">{Number(user.properties_count).toLocaleString(i18n.language)}</td>
                    {administrator ? (
                      <td>
                        {self ? <span className="muted">{t('users.your_account')}</span> : null}
                        {manage && confirming === user.user_id ? (
                          <ConfirmQuestion
                            question={t('users.confirm_delete', { name })}
                            confirmLabel={t('users.confirm_delete_button')}
                            focus="cancel"
                            confirmDisabled={busy}
                            cancelDisabled={busy}
                            className="users-confirm"
                            onConfirm={() => deleteUser(user)}
                            onCancel={() => setConfirming(null)}
                          />
                        ) : null}
                        {manage && confirming !== user.user_id ? (
                          <div className="row users-actions">
                            <select
                              aria-label={t('users.role_of', { name })}
                              value={chosen}
                              disabled={busy}
                              onChange={(event) => setRoles({ ...roles, [user.user_id]: event.target.value as Role })}
                            >
                              {ROLES.map((role) => (
                                <option key={role} value={role}>
                                  {t(`common.role_${role}`)}
                                </option>
                              ))}
                            </select>
                            <button
                              type="button"
                              disabled={busy || chosen === user.role}
                              onClick={() => changeRole(user)}
                              aria-label={t('users.change_role_of', { name })}
                            >
                              {t('users.change_role')}
                            </button>
                            <button
                              type="button"
                              disabled={busy}
                              onClick={() => changeStatus(user)}
                              aria-label={t(user.status === 'suspended' ? 'users.reactivate_named' : 'users.suspend_named', { name })}
                            >
                              {t(user.status === 'suspended' ? 'users.reactivate' : 'users.suspend')}
                            </button>
                            <button
                              type="button"
                              className="danger"
                              disabled={busy}
                              onClick={() => setConfirming(user.user_id)}
                              aria-label={t('users.delete_named', { name })}
                            >
                              {t('common.delete')}
                            </button>
                          </div>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollBox>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
