import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { translate } from '../../../i18n/index.js';
import type { ImportFiles } from './import-files.js';
import {
  CreateUrlImportBody,
  type CreateUrlImportInput,
  ImportRunDetail,
  ImportRunIdParams,
  ImportRunList,
  ListImportRunsQuery,
  REPORTED_REJECTIONS,
  REPORTED_WARNINGS,
  UploadImportForm,
} from './import-runs.schemas.js';
import type { ImportRuns } from './import-runs.service.js';
import { readImportUpload } from './import-upload.multipart.js';

export interface ImportRunRouteOptions {
  importRuns: ImportRuns;
  files: ImportFiles;
  /** IMPORT_MAX_FILE_BYTES: the largest upload. */
  maxFileBytes: number;
}

const ImportRunRef = Type.Ref('ImportRun');
const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['exchange'];

/**
 * POST /imports, GET /imports, GET /imports/{id}: registered in a scope with multipart parsing
 * (http/multipart.ts), since POST /imports takes an upload or a JSON body.
 */
export async function importRunRoutes(app: FastifyInstance, { importRuns, files, maxFileBytes }: ImportRunRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/imports',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Queue a feed import: an upload or a URL (administrator)',
        description:
          'What `realty-api import` does, run by the background job `feed-imports` (docs/data-exchange.md, "Imports over ' +
          'HTTP"). Either multipart/form-data with a `file` part (at most `IMPORT_MAX_FILE_BYTES`, default 200 MB → else 413; ' +
          'stored under a random name until the run ends) and the text fields `format`, `source`, `dry_run`, `strict` and ' +
          '`withdraw_missing` (`true`/`false`), `owner_email` (`strict`: a record with a warning is rejected instead); ' +
          'or a JSON body with the same fields and a `url` (http or ' +
          'https, downloaded by the job through the outbound guard: public addresses only unless the host is in ' +
          '`IMPORT_ALLOWED_HOSTS`). The file must be UTF-8, its XML nested at most 64 deep, a CSV record or a piece of XML ' +
          'text at most 1 MiB (16 MiB in a WordPress export), else the run fails at that place (docs/data-exchange.md, "What ' +
          'a file is held to"). Answers 202 with the run, `queued`; follow it with GET /imports/{id}. An unknown ' +
          'format, a bad URL, an `owner_email` of no account → 400 naming the field; another content type → 415.',
        security,
        body: {
          content: {
            'application/json': { schema: CreateUrlImportBody },
            'multipart/form-data': { schema: UploadImportForm },
          },
        },
        response: { 202: Envelope(ImportRunRef), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const record = request.isMultipart()
        ? await (async () => {
            const { upload, request: asked } = await readImportUpload(request, files, maxFileBytes);
            return importRuns.queueUpload(request.user!, upload, asked);
          })()
        : await importRuns.queueUrl(request.user!, request.body as CreateUrlImportInput);
      return reply.code(202).send({ success: true, data: record, message: translate(request.lang, 'import_queued') });
    },
  );

  api.get(
    '/imports',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'The import runs, newest first (administrator)',
        description: 'Every run, queued by POST /imports or by a feed source, without its report of rejected records.',
        security,
        querystring: ListImportRunsQuery,
        response: { 200: Envelope(ImportRunList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await importRuns.list(request.query) }),
  );

  api.get(
    '/imports/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'One import run, with its progress, its rejected records and its warnings (administrator)',
        description:
          'While it runs, `counts`, `rejections` and `warnings` are written about every second. `rejections` holds the first ' +
          `${REPORTED_REJECTIONS} rejected records in file order (place, key, field and reason); \`counts.rejected\` counts ` +
          'them all and `rejections_truncated` says when the report is cut. `warnings` holds the first ' +
          `${REPORTED_WARNINGS} values left out of records imported without them (place, key, field, reason; each text at ` +
          'most 300 characters), `counts.warnings` counting them all and `warnings_truncated` saying when the report is cut. ' +
          'Unknown id → 404.',
        security,
        params: ImportRunIdParams,
        response: { 200: Envelope(ImportRunDetail), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await importRuns.get(request.params.id) }),
  );
}
