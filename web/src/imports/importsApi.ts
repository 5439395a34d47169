import { snakifyKeys } from '@kosh/contract';
import { api } from '../api/baseApi';

/** The answers of /api/imports (issue 30), in the server's own names. */
export type ImportStatus =
  | 'new'
  | 'duplicate'
  | 'possible_duplicate'
  | 'emi_match'
  | 'error'
  | 'opening_balance';

export type ImportRow = {
  index: number;
  line: number;
  status: ImportStatus;
  reason: string | null;
  date: string | null;
  amount: number;
  balance: number | null;
  narration: string;
  notes: string;
  channel: string | null;
  counterparty: string | null;
  reference: string | null;
  decision: 'import' | 'skip' | null;
  match_emi: boolean;
  possible_duplicate_of: { transaction_id: string; date: string; notes: string } | null;
  emi: { loan_id: string; emi_number: number; due_date: string; amount: number } | null;
  transaction_id: string | null;
  /** Issue 31: what the user's rules propose for the row (recorded with it on commit). */
  proposed_category_id?: string | null;
  proposed_payee?: string | null;
};

export type ImportMapping = {
  date: string;
  narration: string;
  reference: string | null;
  value_date: string | null;
  debit: string | null;
  credit: string | null;
  amount: string | null;
  dr_cr: string | null;
  balance: string | null;
  balance_dr_cr: string | null;
};

export type ImportPreview = {
  id: string;
  account_id: string;
  file_name: string;
  status: 'preview' | 'committed' | 'undone';
  format: string;
  encoding: string | null;
  preset: { id: string; bank: string } | null;
  mapping: ImportMapping | null;
  /** Where the mapping came from: a preset, this file's own, or one saved for the account. */
  mapping_source: 'preset' | 'custom' | 'saved' | null;
  header_line: number | null;
  total_rows: number;
  counts: { new: number; duplicate: number; possible_duplicate: number; emi_match: number; error: number };
  balance_check: {
    status: 'ok' | 'mismatch' | 'no-balance';
    checked_rows: number;
    opening_balance: number | null;
    first_mismatch: {
      line: number;
      expected: number;
      stated: number;
      difference: number;
      message: string;
    } | null;
  };
  committed: { imported: number; skipped: number; emi_matched: number; match_problems: string[] } | null;
  rows: ImportRow[];
  rows_pagination: { current_page: number; total_items: number; total_pages: number };
};

export type AccountChoice = { id: string; name: string; bank_name: string | null; last_four: string | null };

export type RowDecision = { index: number; decision: 'import' | 'skip'; match_emi?: boolean };

/** Everything an import changes: the book, the ledger, the registers, the history. */
const changed = [
  'Import',
  'Transaction',
  'TransactionStats',
  'Ledger',
  'Periods',
  'Account',
  'History',
  'Schedule',
  'Loan',
] as const;

export const importsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getImportAccounts: build.query<AccountChoice[], void>({
      extraOptions: { errorFallback: 'Failed to load accounts' },
      query: () => '/accounts',
      // The base query reads answers in camelCase; this screen keeps the server's names throughout.
      transformResponse: (answer: unknown) =>
        (snakifyKeys(answer) as { data: { accounts: AccountChoice[] } }).data.accounts,
      providesTags: ['Account'],
    }),
    getImport: build.query<
      ImportPreview,
      { id: string; status?: ImportStatus | null; page: number; limit: number }
    >({
      extraOptions: { errorFallback: 'Failed to load the preview' },
      query: ({ id, status, page, limit }) => ({
        url: `/imports/${encodeURIComponent(id)}`,
        params: { page, limit, ...(status ? { status } : {}) },
      }),
      transformResponse: (answer: unknown) =>
        (snakifyKeys(answer) as { data: { import: ImportPreview } }).data.import,
      providesTags: (_r, _e, { id }) => [{ type: 'Import', id }],
    }),
    updateImport: build.mutation<
      unknown,
      {
        id: string;
        mapping?: Partial<ImportMapping> | null;
        preset?: string | null;
        decisions?: RowDecision[];
      }
    >({
      query: ({ id, ...body }) => ({ url: `/imports/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Import', id }],
    }),
    commitImport: build.mutation<{ message: string }, { id: string; confirm_balance_mismatch?: boolean }>({
      query: ({ id, ...body }) => ({
        url: `/imports/${encodeURIComponent(id)}/commit`,
        method: 'POST',
        body,
      }),
      invalidatesTags: [...changed],
    }),
    undoImport: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/imports/${encodeURIComponent(id)}/undo`, method: 'POST' }),
      invalidatesTags: [...changed],
    }),
    discardImport: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/imports/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Import'],
    }),
  }),
});

export const {
  useGetImportAccountsQuery,
  useGetImportQuery,
  useUpdateImportMutation,
  useCommitImportMutation,
  useUndoImportMutation,
  useDiscardImportMutation,
} = importsApi;

/**
 * Uploads a statement with progress (fetch has no upload progress, so this one request is an
 * XMLHttpRequest with the session's token, as the base query would send it). Resolves to the
 * new preview's id, rejects with the envelope's message.
 */
export function uploadStatement(
  token: string | null,
  fields: { file: File; accountId: string; preset?: string },
  onProgress: (fraction: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('account_id', fields.accountId);
    if (fields.preset) form.append('preset', fields.preset);
    form.append('file', fields.file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/imports');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: { data?: { id?: string }; message?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status === 201 && body?.data?.id) resolve(body.data.id);
      else reject(new Error(body?.message ?? `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error('Upload failed: the server could not be reached'));
    xhr.send(form);
  });
}
