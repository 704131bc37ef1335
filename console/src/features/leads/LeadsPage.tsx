import { useTable } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { DataTable, Forbidden, isForbidden, PageHeader, Pager, QueryStatus } from '../../components/ui';
import { type LeadRecord, mailtoHref, safeHttpUrl, telHref } from './contact';
import './leads.css';
import { formatDateTime } from '../../format';

/** The inquiries addressed to the caller (GET /users/leads), newest first. */
export default function LeadsPage() {
  const { t, i18n } = useTranslation();
  const { tableQuery, result, currentPage, setCurrentPage, pageCount } = useTable<LeadRecord>({
    resource: 'leads-inbox',
    pagination: { pageSize: 20 },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
    syncWithLocation: true,
  });
  if (isForbidden(tableQuery.error)) return <Forbidden />;

  return (
    <section>
      <PageHeader title={t('leads.title')} />
      <p className="muted">{t('leads.intro')}</p>
      <QueryStatus query={tableQuery} isEmpty={result.data.length === 0} empty={t('leads.none')} />
      {result.data.length > 0 ? (
        <DataTable
          columns={[t('leads.received'), t('leads.from'), t('leads.about'), t('leads.message')]}
          caption={t('leads.title')}
          className="leads-table"
        >
          {result.data.map((lead) => {
            const mail = mailtoHref(lead.email);
            const tel = telHref(lead.phone);
            const listing = safeHttpUrl(lead.property?.url);
            return (
              <tr key={lead.id}>
                <td>
                  <time dateTime={lead.created_at}>{formatDateTime(lead.created_at, i18n.language)}</time>
                </td>
                <td>
                  <div className="leads-from">
                    <strong dir="auto">{lead.name}</strong>
                    <span className="tag">{t(`leads.user_type_${lead.user_type}`)}</span>
                    {mail ? (
                      <a href={mail} dir="ltr">
                        {lead.email}
                      </a>
                    ) : (
                      <span dir="ltr">{lead.email}</span>
                    )}
                    {tel ? (
                      <a href={tel} dir="ltr">
                        {lead.phone}
                      </a>
                    ) : lead.phone ? (
                      <span dir="ltr">{lead.phone}</span>
                    ) : null}
                  </div>
                </td>
                <td>
                  {lead.target_type === 'property' ? (
                    listing && lead.property ? (
                      <a href={listing} target="_blank" rel="noopener noreferrer" dir="auto">
                        {lead.property.title || t('leads.listing_number', { id: lead.property.id })}
                      </a>
                    ) : (
                      <span className="muted">{t('leads.listing_gone')}</span>
                    )
                  ) : (
                    <span>{t(`leads.target_${lead.target_type}`)}</span>
                  )}
                </td>
                <td className="leads-message" dir="auto">
                  {lead.message}
                </td>
              </tr>
            );
          })}
        </DataTable>
      ) : null}
      <Pager currentPage={currentPage} pageCount={pageCount} total={result.total} onPage={setCurrentPage} />
    </section>
  );
}
