import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  errorResponses,
  IdParams,
  ImportAnswer,
  ImportCommitBody,
  ImportRowsQuery,
  ImportUpdateBody,
} from '@kosh/contract';
import {
  accountDecider,
  accountStreamId,
  applyDecisions,
  type ColumnMapping,
  ConflictError,
  countPreviewRows,
  formatInr,
  fromPaise,
  IMPORT_NOT_FOUND,
  type ImportedRow,
  type ImportPreviewRow,
  importDecider,
  importStreamId,
  isUuid,
  loanDecider,
  loanStreamId,
  NotFoundError,
  type ParsedStatement,
  type RowDecisionInput,
  type SavedMapping,
  STATEMENT_PRESETS,
  undecidedRows,
  ValidationError,
  validateColumnMapping,
} from '@kosh/domain';
import { knownFingerprints, listImportBatches } from '@kosh/projections';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { handleCommand, loadAggregate } from '../../commands/handle';
import { commandContext } from '../../commands/route';
import { withAccountImportLock } from '../../imports/account-lock';
import { importUploadRateLimit } from '../auth/limits';
import { releaseMatchesOfDeletedDebit } from '../loans/release-matches';
import { IMPORT_MAX_BYTES, readStatementPreview, type StoredPreview, StreamedStatement } from './preview';
import { decodePreviewRows, encodePreviewRows } from './preview-store';
import { proposalOf, type RuleProposal, ruleProposer } from './rule-proposals';

const tags = ['Imports'];
const security = [{ bearerAuth: [] }];

type PreviewRecord = {
  id: string;
  accountId: string;
  fileName: string;
  file: Buffer | null;
  status: 'preview' | 'committed' | 'undone';
  preview: StoredPreview;
  createdAt: string;
  updatedAt: string;
};

/** The `preview` column: the summary without the rows (stored in `rows`), with their number. */
function summaryJson(preview: StoredPreview): string {
  const { rows, ...summary } = preview;
  return JSON.stringify({ ...summary, totalRows: rows.length });
}

const STATUSES = ['new', 'duplicate', 'possible_duplicate', 'emi_match', 'error', 'opening_balance'] as const;

/** A mapping as the client sends it (snake_case keys), or undefined; 422 on `mapping` when unusable. */
function parseMapping(value: unknown): ColumnMapping | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let raw: unknown = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      throw new ValidationError([{ field: 'mapping', message: 'Must be a JSON object of column headers' }]);
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ValidationError([{ field: 'mapping', message: 'Must be a JSON object of column headers' }]);
  }
  const r = raw as Record<string, unknown>;
  const mapping = Object.fromEntries(
    Object.entries({
      date: r.date,
      narration: r.narration,
      reference: r.reference,
      valueDate: r.value_date ?? r.valueDate,
      debit: r.debit,
      credit: r.credit,
      amount: r.amount,
      drCr: r.dr_cr ?? r.drCr,
      balance: r.balance,
      balanceDrCr: r.balance_dr_cr ?? r.balanceDrCr,
    }).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
  const errors = validateColumnMapping(mapping);
  if (errors.length > 0) {
    throw new ValidationError(
      errors.map((e) => ({
        field: e.field.replace(/([A-Z])/g, (c) => `_${c.toLowerCase()}`),
        message: e.message,
      })),
    );
  }
  return mapping as ColumnMapping;
}

function parsePreset(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !STATEMENT_PRESETS.some((p) => p.id === value)) {
    throw new ValidationError([
      { field: 'preset', message: `Must be one of ${STATEMENT_PRESETS.map((p) => p.id).join(', ')}` },
    ]);
  }
  return value;
}

const money = (paise: number | null) => (paise === null ? null : fromPaise(paise));

function mappingToWire(mapping: ColumnMapping | null) {
  if (!mapping) return null;
  return {
    date: mapping.date,
    narration: mapping.narration,
    reference: mapping.reference ?? null,
    value_date: mapping.valueDate ?? null,
    debit: mapping.debit ?? null,
    credit: mapping.credit ?? null,
    amount: mapping.amount ?? null,
    dr_cr: mapping.drCr ?? null,
    balance: mapping.balance ?? null,
    balance_dr_cr: mapping.balanceDrCr ?? null,
  };
}

function rowToWire(
  row: ImportPreviewRow,
  transactionId: string | null,
  proposal: RuleProposal | null = null,
) {
  return {
    // Issue 31: what the user's rules propose (recorded with the row on commit).
    proposed_category_id: proposal?.categoryId ?? null,
    proposed_payee: proposal?.payee ?? null,
    index: row.index,
    line: row.line,
    status: row.status,
    reason: row.reason,
    date: row.date,
    amount: fromPaise(row.amount),
    balance: money(row.balance),
    narration: row.narration,
    notes: row.notes,
    channel: row.channel,
    counterparty: row.counterparty,
    reference: row.reference,
    decision: row.decision,
    match_emi: row.matchEmi,
    possible_duplicate_of: row.possibleDuplicateOf
      ? {
          transaction_id: row.possibleDuplicateOf.transactionId,
          date: row.possibleDuplicateOf.date,
          notes: row.possibleDuplicateOf.notes,
        }
      : null,
    emi: row.emi
      ? {
          loan_id: row.emi.loanId,
          emi_number: row.emi.emiNumber,
          due_date: row.emi.dueDate,
          amount: fromPaise(row.emi.amount),
        }
      : null,
    transaction_id: transactionId,
  };
}

function summaryToWire(record: PreviewRecord) {
  const p = record.preview;
  const mismatch = p.balance.firstMismatch;
  return {
    id: record.id,
    account_id: record.accountId,
    file_name: record.fileName,
    status: record.status,
    format: p.format,
    encoding: p.encoding,
    preset: p.preset,
    mapping: mappingToWire(p.mapping),
    mapping_source: p.mappingSource ?? null,
    header_line: p.headerLine,
    skipped_lines: p.skippedLines,
    total_rows: p.rows.length,
    counts: p.counts,
    balance_check: {
      status: p.balance.status,
      checked_rows: p.balance.checkedRows,
      opening_balance: money(p.balance.openingBalance),
      first_mismatch: mismatch
        ? {
            line: mismatch.line,
            index: mismatch.index,
            expected: fromPaise(mismatch.expected),
            stated: fromPaise(mismatch.stated),
            difference: fromPaise(mismatch.difference),
            message: mismatch.message,
          }
        : null,
    },
    committed: p.committed
      ? {
          imported: p.committed.imported,
          skipped: p.committed.skipped,
          emi_matched: p.committed.matched,
          match_problems: p.committed.matchProblems,
        }
      : null,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/**
 * Statement imports (issue 30 item 2): upload → preview (kept in `import_previews`, not history) →
 * decisions → commit (one `ImportCommitted` event in `import-{id}` holding every chosen row, then
 * each EMI match as the loan's own `EmiMatched`) → undo (`ImportUndone`). Another user's import
 * or account is a 404; a file that cannot be read is a 422 naming line and column.
 */
export async function importRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);
  const uploadLimit = importUploadRateLimit(app);

  /**
   * The column mappings saved for the caller's open account (issue 30 item 3), from its stream;
   * null when the account is not the caller's open one.
   */
  async function savedMappingsOf(userId: string, accountId: string): Promise<SavedMapping[] | null> {
    if (!isUuid(accountId)) return null;
    const { state } = await loadAggregate(platform, accountStreamId(accountId.toLowerCase()), accountDecider);
    if (state.status !== 'open' || state.userId !== userId) return null;
    return Object.entries(state.importMappings).map(([headerKey, mapping]) => ({ headerKey, mapping }));
  }

  /** The preview; its file only `withFile` (the commit never reads the file again: 5 MB and up). */
  async function load(userId: string, id: string, withFile = true): Promise<PreviewRecord> {
    if (!isUuid(id)) throw new NotFoundError(IMPORT_NOT_FOUND);
    const { rows } = await platform.db.query<{
      id: string;
      account_id: string;
      file_name: string;
      file: Buffer | null;
      status: PreviewRecord['status'];
      preview: string;
      rows: Buffer | null;
      committed: string | null;
      created_at: string;
      updated_at: string;
    }>(
      `SELECT id::text AS id, account_id::text AS account_id, file_name, ${withFile ? 'file' : 'NULL::bytea AS file'},
              status, preview, rows, committed,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
         FROM import_previews WHERE id = $1::uuid AND user_id = $2`,
      [id, userId],
    );
    const r = rows[0];
    if (!r) throw new NotFoundError(IMPORT_NOT_FOUND);
    const stored = JSON.parse(r.preview) as StoredPreview;
    // A preview stored before its rows had a column of their own holds them in `preview`.
    if (r.rows !== null) stored.rows = await decodePreviewRows(r.rows);
    return {
      id: r.id,
      accountId: r.account_id,
      fileName: r.file_name,
      file: r.file,
      status: r.status,
      preview: {
        ...stored,
        ...(r.committed !== null && { committed: JSON.parse(r.committed) as StoredPreview['committed'] }),
      },
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  async function save(
    userId: string,
    record: Pick<PreviewRecord, 'id' | 'status' | 'preview'>,
    keepFile = true,
  ) {
    await platform.db.query(
      `UPDATE import_previews SET status = $3, preview = $4, rows = $5, updated_at = $6, version = version + 1
              ${keepFile ? '' : ', file = NULL'}
        WHERE id = $1::uuid AND user_id = $2`,
      [
        record.id,
        userId,
        record.status,
        summaryJson(record.preview),
        await encodePreviewRows(record.preview.rows),
        platform.clock().toISOString(),
      ],
    );
  }

  async function answer(userId: string, id: string, query: ImportRowsQuery = {}) {
    return answerOf(userId, await load(userId, id), query);
  }

  async function answerOf(userId: string, record: PreviewRecord, query: ImportRowsQuery = {}) {
    const status = query.status;
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) {
      throw new ValidationError([{ field: 'status', message: `Must be one of ${STATUSES.join(', ')}` }]);
    }
    const limit = query.limit === undefined ? null : Number(query.limit);
    const page = query.page === undefined ? 1 : Number(query.page);
    if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 100_000))
      throw new ValidationError([{ field: 'limit', message: 'Must be a whole number from 1 to 100000' }]);
    if (!Number.isInteger(page) || page < 1)
      throw new ValidationError([{ field: 'page', message: 'Must be a whole number from 1' }]);
    const matching = status
      ? record.preview.rows.filter((row) => row.status === status)
      : record.preview.rows;
    const shown = limit === null ? matching : matching.slice((page - 1) * limit, page * limit);
    const recorded = record.preview.committed?.transactions ?? {};
    const propose = await ruleProposer(platform.db, userId, record.accountId);
    return {
      success: true as const,
      data: {
        import: {
          ...summaryToWire(record),
          rows: shown.map((row) => rowToWire(row, recorded[String(row.index)] ?? null, propose(row))),
          rows_pagination: {
            current_page: page,
            total_items: matching.length,
            total_pages: limit === null ? 1 : Math.max(1, Math.ceil(matching.length / limit)),
          },
        },
      },
    };
  }

  /** The multipart upload: the file (at most 10 MB) and the form fields. */
  async function readUpload(request: FastifyRequest) {
    if (!request.isMultipart()) {
      throw new ValidationError([
        { field: 'file', message: 'Send the statement as multipart/form-data field "file"' },
      ]);
    }
    const fields: Record<string, string> = {};
    let file: { name: string; bytes: Buffer; parsed: ParsedStatement | undefined } | null = null;
    let streamed: StreamedStatement | null = null;
    const tooLarge = () =>
      new ValidationError(
        [{ field: 'file', message: 'The file is larger than 10 MB' }],
        'The file is larger than 10 MB',
      );
    const parts = request.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5 } });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        // The file is read as it arrives, with the preset or mapping sent before it (the web sends
        // them first); one sent after it has the file read again at the end.
        streamed = new StreamedStatement({
          preset: parsePreset(fields.preset),
          mapping: parseMapping(fields.mapping),
        });
        try {
          for await (const chunk of part.file) streamed.push(chunk as Buffer);
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
          throw error;
        }
        if (part.file.truncated) throw tooLarge();
        const { bytes, parsed } = streamed.end();
        file = { name: part.filename || 'statement', bytes, parsed };
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
    if (file && streamed) {
      const { preset, mapping } = streamed.options;
      const same =
        preset === parsePreset(fields.preset) &&
        JSON.stringify(mapping) === JSON.stringify(parseMapping(fields.mapping));
      if (!same) file.parsed = undefined;
    }
    if (!file) throw new ValidationError([{ field: 'file', message: 'Choose a statement file' }]);
    return { file, fields };
  }

  app.post(
    '/',
    {
      preHandler: uploadLimit,
      schema: {
        tags,
        security,
        summary:
          'Upload a statement (multipart: file, account_id, preset?, mapping?): reads it and stores a preview',
        response: { 200: ImportAnswer, 201: ImportAnswer, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const userId = request.userId;
      const { file, fields } = await readUpload(request);
      const accountId = fields.account_id?.trim() ?? '';
      if (!accountId) throw new ValidationError([{ field: 'account_id', message: 'Choose an account' }]);
      // Another user's account is not found, as everywhere.
      const saved = await savedMappingsOf(userId, accountId);
      if (!saved) throw new NotFoundError('Account not found');
      const preset = parsePreset(fields.preset);
      const mapping = parseMapping(fields.mapping);
      // A mapping saved for this header shape is proposed unless the upload chose its own; the
      // file read as it arrived knew none, so it is read again with them.
      const useSaved = !mapping && preset === undefined && saved.length > 0;
      const preview = await readStatementPreview(
        platform.db,
        userId,
        accountId,
        file.bytes,
        { preset, mapping, ...(useSaved && { saved }) },
        useSaved ? undefined : file.parsed,
      );
      const id = randomUUID();
      const now = platform.clock().toISOString();
      await platform.db.query(
        `INSERT INTO import_previews (id, user_id, account_id, file_name, file, status, preview, rows, created_at, updated_at, version)
         VALUES ($1::uuid, $2, $3::uuid, $4, $5, 'preview', $6, $7, $8, $8, 1)`,
        [
          id,
          userId,
          accountId,
          file.name.slice(0, 255),
          file.bytes,
          summaryJson(preview),
          await encodePreviewRows(preview.rows),
          now,
        ],
      );
      reply.status(201);
      return {
        success: true as const,
        message: `Statement read: ${preview.rows.length} rows`,
        data: {
          id,
          import: {
            ...summaryToWire({
              id,
              accountId,
              fileName: file.name,
              file: null,
              status: 'preview',
              preview,
              createdAt: now,
              updatedAt: now,
            }),
          },
        },
      };
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'The statement imports: open previews and committed batches, newest first',
        response: { 200: ImportAnswer, 201: ImportAnswer, ...errorResponses(401) },
      },
    },
    async (request) => {
      const userId = request.userId;
      const [{ rows: previews }, batches] = await Promise.all([
        platform.db.query<{
          id: string;
          account_id: string;
          file_name: string;
          status: string;
          preview: string;
          created_at: string;
        }>(
          `SELECT id::text AS id, account_id::text AS account_id, file_name, status, preview,
                  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
             FROM import_previews WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT 200`,
          [userId],
        ),
        listImportBatches(platform.db, userId),
      ]);
      const byId = new Map(batches.map((b) => [b.id, b]));
      const listed = previews.map((p) => {
        // The summary only: rows are in their own column (older previews hold them here).
        const preview = JSON.parse(p.preview) as Omit<StoredPreview, 'rows'> & {
          rows?: unknown[];
          totalRows?: number;
        };
        const batch = byId.get(p.id);
        byId.delete(p.id);
        return {
          id: p.id,
          account_id: p.account_id,
          file_name: p.file_name,
          status: batch?.status ?? p.status,
          format: preview.format,
          preset: preview.preset,
          total_rows: preview.totalRows ?? preview.rows?.length ?? 0,
          counts: preview.counts as StoredPreview['counts'] | null,
          imported_rows: batch?.rowCount ?? null,
          created_at: p.created_at,
          committed_at: batch?.committedAt ?? null,
          undone_at: batch?.undoneAt ?? null,
        };
      });
      for (const b of byId.values()) {
        listed.push({
          id: b.id,
          account_id: b.accountId,
          file_name: b.fileName,
          status: b.status,
          format: b.format,
          preset: b.preset
            ? { id: b.preset, bank: STATEMENT_PRESETS.find((p) => p.id === b.preset)?.bank ?? b.preset }
            : null,
          total_rows: b.rowCount + b.skippedRows,
          counts: null,
          imported_rows: b.rowCount,
          created_at: b.committedAt,
          committed_at: b.committedAt,
          undone_at: b.undoneAt,
        });
      }
      return { success: true as const, data: { imports: listed } };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'A preview or batch: detected format and preset, mapping, counts, balance check and every row (status filter, paging optional)',
        params: IdParams,
        querystring: ImportRowsQuery,
        response: { 200: ImportAnswer, 201: ImportAnswer, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => answer(request.userId, request.params.id, request.query),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change the mapping or preset (the file is read again) and/or the per-row decisions',
        params: IdParams,
        body: ImportUpdateBody,
        response: { 200: ImportAnswer, 201: ImportAnswer, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const userId = request.userId;
      const record = await load(userId, request.params.id);
      if (record.status !== 'preview')
        throw new ConflictError('This import was committed already', 'IMPORT_COMMITTED');
      const body = (request.body ?? {}) as Record<string, unknown>;
      let preview = record.preview;
      if (body.mapping !== undefined || body.preset !== undefined) {
        if (!record.file)
          throw new ConflictError('The file of this preview is gone; upload it again', 'IMPORT_FILE_GONE');
        const mapping = parseMapping(body.mapping);
        const preset = mapping ? undefined : parsePreset(body.preset);
        const saved =
          !mapping && preset === undefined ? await savedMappingsOf(userId, record.accountId) : null;
        preview = await readStatementPreview(platform.db, userId, record.accountId, record.file, {
          preset,
          mapping,
          ...(saved && { saved }),
        });
      }
      if (body.decisions !== undefined) {
        const decisions = parseDecisions(body.decisions);
        const applied = applyDecisions(preview.rows, decisions);
        if (applied.errors.length > 0) throw new ValidationError(applied.errors);
        preview = { ...preview, rows: applied.rows, counts: countPreviewRows(applied.rows) };
      }
      await save(userId, { id: record.id, status: 'preview', preview });
      return { ...(await answer(userId, record.id)), message: 'Preview updated' };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Discard a preview (nothing was recorded)',
        params: IdParams,
        response: { 200: ImportAnswer, 201: ImportAnswer, ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const record = await load(request.userId, request.params.id);
      if (record.status !== 'preview')
        throw new ConflictError('A committed import is undone, not discarded', 'IMPORT_COMMITTED');
      await platform.db.query('DELETE FROM import_previews WHERE id = $1::uuid AND user_id = $2', [
        record.id,
        request.userId,
      ]);
      return { success: true as const, message: 'Preview discarded', data: null };
    },
  );

  /**
   * A mapping the user chose for this file (not a preset's, not one already saved) is remembered
   * for the account under the file's header shape, as the account's own event. The import is
   * recorded already: a failure here (the account deleted meanwhile, a concurrent edit) only
   * leaves the mapping unsaved. True when it was saved.
   */
  async function saveMapping(request: FastifyRequest, accountId: string, preview: StoredPreview) {
    if (preview.mappingSource !== 'custom' || !preview.mapping || !preview.header) return false;
    try {
      const result = await handleCommand(commandContext(request), {
        streamId: accountStreamId(accountId),
        decider: accountDecider,
        command: {
          type: 'SaveImportMapping',
          data: {
            accountId,
            userId: request.userId,
            now: platform.clock().toISOString(),
            headerKey: preview.header.key,
            header: preview.header.cells.slice(0, 100).map((cell) => cell.slice(0, 100)),
            mapping: preview.mapping,
          },
        },
        waitFor: ['accounts'],
      });
      return result.events.length > 0;
    } catch (error) {
      request.log.warn({ err: error, accountId }, 'the column mapping of an import was not saved');
      return false;
    }
  }

  app.post(
    '/:id/commit',
    {
      schema: {
        tags,
        security,
        summary: 'Record every row chosen (one ImportCommitted event), and match the EMI payments found',
        params: IdParams,
        body: ImportCommitBody,
        response: { 200: ImportAnswer, 201: ImportAnswer, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const userId = request.userId;
      const body = (request.body ?? {}) as Record<string, unknown>;
      // The account is known from the preview; the commit itself runs under the account's lock
      // and reads the preview again there (another commit of it may have just finished).
      if (!isUuid(request.params.id)) throw new NotFoundError(IMPORT_NOT_FOUND);
      const { rows: owned } = await platform.db.query<{ account_id: string }>(
        'SELECT account_id::text AS account_id FROM import_previews WHERE id = $1::uuid AND user_id = $2',
        [request.params.id, userId],
      );
      const accountId = owned[0]?.account_id;
      if (!accountId) throw new NotFoundError(IMPORT_NOT_FOUND);
      const { record, fresh, rows, transactions } = await withAccountImportLock(platform.db, accountId, () =>
        recordChosenRows(request, reply, body),
      );
      const { preview } = record;
      const mappingSaved = await saveMapping(request, record.accountId, preview);
      const now = platform.clock().toISOString();
      // Each EMI payment found is matched as the loan's own command (issue 27's paid-EMI model):
      // the ledger then shows the EMI once and hides the debit.
      let matched = 0;
      const matchProblems: string[] = [];
      for (const row of fresh) {
        if (row.status !== 'emi_match' || !row.matchEmi || !row.emi) continue;
        const transactionId = transactions[String(row.index)]!;
        try {
          await handleCommand(commandContext(request), {
            streamId: loanStreamId(row.emi.loanId),
            decider: loanDecider,
            command: {
              type: 'MatchEmi',
              data: {
                loanId: row.emi.loanId,
                userId,
                now,
                markId: randomUUID(),
                paymentNumber: row.emi.emiNumber,
                transactionId,
                paidOn: row.date!,
                amount: Math.abs(row.amount),
                confirm: false,
              },
            },
            waitFor: ['loans', 'schedules', 'ledger', 'history'],
          });
          matched += 1;
        } catch (error) {
          matchProblems.push(
            `Line ${row.line}: EMI ${row.emi.emiNumber} not matched (${(error as Error).message})`,
          );
        }
      }
      const committed = {
        transactions,
        imported: rows.length,
        skipped: preview.rows.length - rows.length,
        matched,
        matchProblems,
      };
      await saveCommitted(userId, record.id, committed);
      const done: PreviewRecord = { ...record, status: 'committed', preview: { ...preview, committed } };
      return {
        ...(await answerOf(userId, done, { limit: '1' })),
        message: `${rows.length} transaction${rows.length === 1 ? '' : 's'} imported${matched ? `, ${matched} EMI${matched === 1 ? '' : 's'} matched` : ''}${mappingSaved ? '; the column mapping is remembered for this account' : ''}`,
      };
    },
  );

  /**
   * The commit under the account's lock: the preview read again (a second commit of it is a
   * 409), the rows another commit recorded since the preview left out, one `ImportCommitted`
   * appended, and the lock kept until the imports read model holds the rows' fingerprints.
   */
  async function recordChosenRows(
    request: FastifyRequest,
    reply: FastifyReply,
    body: Record<string, unknown>,
  ) {
    const userId = request.userId;
    const record = await load(userId, (request.params as { id: string }).id, false);
    if (record.status !== 'preview')
      throw new ConflictError('This import was committed already', 'IMPORT_COMMITTED');
    const { preview } = record;
    const errorRows = preview.rows.filter((row) => row.status === 'error');
    if (errorRows.length > 0 && body.skip_error_rows !== true) {
      const first = errorRows[0]!;
      throw new ValidationError(
        [{ field: 'file', message: first.reason ?? `Line ${first.line} could not be read` }],
        `${errorRows.length} row(s) could not be read (${first.reason}). Fix the mapping, or commit with skip_error_rows`,
      );
    }
    const undecided = undecidedRows(preview.rows);
    if (undecided.length > 0) {
      const first = undecided[0]!;
      throw new ValidationError(
        undecided.slice(0, 50).map((row) => ({
          field: `rows[${row.index}].decision`,
          message: `Line ${row.line} may repeat a transaction entered by hand: choose import or skip`,
        })),
        `Decide the ${undecided.length} possible duplicate(s) first (line ${first.line})`,
      );
    }
    const mismatch = preview.balance.firstMismatch;
    if (mismatch && body.confirm_balance_mismatch !== true) {
      throw new ConflictError(
        `The statement's running balance differs from the account's at line ${mismatch.line} by ${formatInr(mismatch.difference)}: ${mismatch.message}. Commit with confirm_balance_mismatch to record it anyway`,
        'BALANCE_MISMATCH',
      );
    }
    const chosen = preview.rows.filter(
      (row) => row.decision === 'import' && row.date !== null && row.amount !== 0,
    );
    // Another commit may have recorded some of these rows since the preview was made: under the
    // lock, its fingerprints are in the read model.
    const known = await knownFingerprints(
      platform.db,
      userId,
      record.accountId,
      chosen.flatMap((row) => row.fingerprints),
    );
    const fresh = chosen.filter((row) => !row.fingerprints.some((key) => known.has(key)));
    const transactions: Record<string, string> = {};
    const propose = await ruleProposer(platform.db, userId, record.accountId);
    const rows: ImportedRow[] = fresh.map((row) => {
      const transactionId = randomUUID();
      transactions[String(row.index)] = transactionId;
      const notes = (row.notes.trim() || row.narration.replace(/\s+/g, ' ').trim() || 'Imported row').slice(
        0,
        255,
      );
      return {
        transactionId,
        line: row.line,
        transactionDate: row.date!,
        transactionType: row.amount > 0 ? 'C' : 'D',
        amount: Math.abs(row.amount),
        notes,
        rawNarration: row.narration,
        reference: row.reference,
        fingerprints: row.fingerprints,
        ...proposalOf(propose(row)),
      };
    });
    const result = await handleCommand(commandContext(request, { reply }), {
      streamId: importStreamId(record.id),
      decider: importDecider,
      newStream: true,
      command: {
        type: 'CommitImport',
        data: {
          importId: record.id,
          userId,
          now: platform.clock().toISOString(),
          accountId: record.accountId,
          fileName: record.fileName,
          format: preview.format,
          preset: preview.preset?.id ?? null,
          rows,
          skippedRows: preview.rows.length - rows.length,
          balanceMismatchConfirmed: mismatch !== null,
        },
      },
      waitFor: ['transactions', 'accounts', 'ledger', 'imports'],
    });
    // The next commit into the account reads these fingerprints: hold the lock until they are in.
    // (Bounded: a stopped projection must not hold every later commit of the account.)
    for (let tries = 0; !result.caughtUp && result.position && tries < 12; tries++) {
      if (await platform.afterAppend(result.position, ['imports'])) break;
    }
    await platform.db.query(
      `UPDATE import_previews SET status = 'committed', file = NULL, updated_at = $3, version = version + 1
        WHERE id = $1::uuid AND user_id = $2`,
      [record.id, userId, platform.clock().toISOString()],
    );
    return { record, fresh, rows, transactions };
  }

  /** What the commit recorded, beside the preview (which stays as stored). */
  async function saveCommitted(
    userId: string,
    id: string,
    committed: NonNullable<StoredPreview['committed']>,
  ) {
    await platform.db.query(
      'UPDATE import_previews SET committed = $3, updated_at = $4, version = version + 1 WHERE id = $1::uuid AND user_id = $2',
      [id, userId, JSON.stringify(committed), platform.clock().toISOString()],
    );
  }

  app.post(
    '/:id/undo',
    {
      schema: {
        tags,
        security,
        summary:
          'Undo a committed import: its EMI matches are released and its transactions removed (ImportUndone)',
        params: IdParams,
        response: { 200: ImportAnswer, 201: ImportAnswer, ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      const userId = request.userId;
      const id = request.params.id;
      if (!isUuid(id)) throw new NotFoundError(IMPORT_NOT_FOUND);
      const result = await handleCommand(commandContext(request, { reply }), {
        streamId: importStreamId(id),
        decider: importDecider,
        command: { type: 'UndoImport', data: { importId: id, userId, now: platform.clock().toISOString() } },
        // Whether the import is the caller's and not undone yet is the decider's (404, 409), from the
        // command's one read; a debit's EMI matches are released once the undo is decided (as a
        // deleted debit's are), so a refused undo releases nothing.
        beforeAppend: async (events) => {
          const undone = events.find((event) => event.type === 'ImportUndone');
          if (!undone) return;
          const { rows: matchedRows } = await platform.db.query<{ transaction_id: string }>(
            `SELECT DISTINCT transaction_id FROM loan_emi_marks WHERE user_id = $1 AND transaction_id = ANY($2::text[])`,
            [userId, undone.data.transactionIds],
          );
          for (const { transaction_id } of matchedRows)
            await releaseMatchesOfDeletedDebit(request, transaction_id);
        },
        waitFor: ['transactions', 'accounts', 'ledger', 'imports'],
      });
      const removed =
        result.events[0]?.type === 'ImportUndone' ? result.events[0].data.transactionIds.length : 0;
      await platform.db.query(
        `UPDATE import_previews SET status = 'undone', updated_at = $3, version = version + 1 WHERE id = $1::uuid AND user_id = $2`,
        [id, userId, platform.clock().toISOString()],
      );
      return {
        success: true as const,
        message: `Import undone: ${removed} transaction${removed === 1 ? '' : 's'} removed`,
        data: { id, removed },
      };
    },
  );
}

function parseDecisions(value: unknown): RowDecisionInput[] {
  const refuse = (message: string) => new ValidationError([{ field: 'decisions', message }]);
  let raw = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      throw refuse('Must be a list of { index, decision }');
    }
  }
  if (!Array.isArray(raw)) throw refuse('Must be a list of { index, decision }');
  return raw.map((d, i) => {
    const item = d as Record<string, unknown>;
    if (typeof item?.index !== 'number' || !Number.isInteger(item.index)) {
      throw new ValidationError([{ field: `decisions[${i}].index`, message: 'Must be a row index' }]);
    }
    if (item.decision !== 'import' && item.decision !== 'skip') {
      throw new ValidationError([{ field: `decisions[${i}].decision`, message: 'Must be import or skip' }]);
    }
    const matchEmi = item.match_emi;
    if (matchEmi !== undefined && typeof matchEmi !== 'boolean') {
      throw new ValidationError([{ field: `decisions[${i}].match_emi`, message: 'Must be true or false' }]);
    }
    return { index: item.index, decision: item.decision, ...(matchEmi !== undefined && { matchEmi }) };
  });
}
