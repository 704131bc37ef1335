import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { bodyDefaultsToEmpty, callerOf } from '../../../http/route-helpers.js';
import { translate } from '../../../i18n/index.js';
import { InvoiceIdParams, InvoiceList, InvoicesQuery } from './invoices.schemas.js';
import type { InvoicesService } from './invoices.service.js';

const InvoiceRef = Type.Ref('Invoice');
const security = [{ bearer: [] }];
const administrator = { auth: ['administrator'] } as const;
const NoBody = Type.Object({}, { additionalProperties: false, description: 'Nothing, or `{}`' });

/** Invoices (docs/api.md 3.2, 10): the buyer's and the staff's reading, archiving and bank-transfer settling. */
export async function invoiceRoutes(app: FastifyInstance, { invoices }: { invoices: InvoicesService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/users/invoices',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users', 'payments'],
        summary: 'The caller’s invoices (administrators and managers: everyone’s), newest first',
        description:
          'Buyers see their own invoices only. Administrators and managers see every buyer’s and may narrow them ' +
          'with `user_id`; anyone else sending `user_id` → 400. `status` filters by state; `start_date` and ' +
          '`end_date` (YYYY-MM-DD, UTC days, both inclusive) filter by creation time, and `end_date` before ' +
          '`start_date` → 400. Newest first (`created_at`, then id, descending), paged. Archived invoices never appear.',
        security,
        querystring: InvoicesQuery,
        response: { 200: Envelope(InvoiceList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await invoices.listInvoices(callerOf(request), request.query) }),
  );

  api.get(
    '/users/invoices/:invoice_id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['users', 'payments'],
        summary: 'One invoice (its buyer, administrators, managers)',
        description: 'Anyone else’s invoice, an archived one and an unknown id → 404 alike.',
        security,
        params: InvoiceIdParams,
        response: { 200: Envelope(InvoiceRef), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await invoices.getInvoice(callerOf(request), request.params.invoice_id) }),
  );

  api.delete(
    '/users/invoices/:invoice_id',
    {
      config: administrator,
      schema: {
        tags: ['users', 'payments'],
        summary: 'Delete an invoice (administrator): it is archived and the buyer’s profile answered',
        description:
          'As the Houzez plugin did, answers `{success: true, data: <the user profile (docs/api.md 3.1) of the invoice’s buyer>}`. The ' +
          'invoice is archived, not erased: kept for accounting, 404 to everyone afterwards and never listed. An ' +
          'archived or unknown invoice → 404. When the buyer’s account has been deleted there is no profile to ' +
          'answer with: 409 `conflict`, and the invoice stays as it is.',
        security,
        params: InvoiceIdParams,
        response: { 200: Envelope(Type.Ref('UserProfile')), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => ({ success: true, data: await invoices.archiveInvoice(callerOf(request), request.params.invoice_id) }),
  );

  api.post(
    '/users/invoices/:invoice_id/mark-paid',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags: ['users', 'payments'],
        summary: 'Mark a bank transfer paid (administrator)',
        description:
          'A pending `bank_transfer` invoice becomes `paid` and its item is delivered (a package activates the ' +
          'buyer’s membership, a listing fee submits the listing, a featured upgrade features it), in one ' +
          'transaction. An invoice that is not pending (already paid, cancelled, refunded) or not paid by bank ' +
          'transfer → 409 `invalid_transition`; archived or unknown → 404. No body (any field → 400).',
        security,
        params: InvoiceIdParams,
        body: NoBody,
        response: { 200: Envelope(InvoiceRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await invoices.markPaid(request.params.invoice_id),
      message: translate(request.lang, 'invoice_marked_paid'),
    }),
  );
}
