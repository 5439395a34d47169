import {
  Button,
  Callout,
  Card,
  Checkbox,
  FileInput,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Intent,
  ProgressBar,
  Tag,
} from '@blueprintjs/core';
import { type DragEvent, useState } from 'react';
import { isApiError } from '../api/apiError';
import { PageHeader } from '../app/layout/PageHeader';
import { useAppSelector } from '../app/store';
import { useReadOnly } from '../audit/auditMode';
import { ReadOnlyNotice } from '../audit/ReadOnlyNotice';
import { categoryLabel, useGetCategoriesQuery } from '../categories/categoriesApi';
import { formatDate, formatMoney } from '../format';
import {
  type ImportMapping,
  type ImportPreview,
  type ImportRow,
  type ImportStatus,
  uploadStatement,
  useCommitImportMutation,
  useDiscardImportMutation,
  useGetImportAccountsQuery,
  useGetImportQuery,
  useUndoImportMutation,
  useUpdateImportMutation,
} from './importsApi';
import './imports.css';

const PRESETS = [
  ['', 'Detect from the header'],
  ['hdfc', 'HDFC Bank'],
  ['icici', 'ICICI Bank'],
  ['sbi', 'State Bank of India'],
  ['axis', 'Axis Bank'],
  ['kotak', 'Kotak Mahindra Bank'],
] as const;

const STATUS_LABELS: Record<ImportStatus, string> = {
  new: 'New',
  duplicate: 'Duplicate',
  possible_duplicate: 'Possible duplicate',
  emi_match: 'EMI match',
  error: 'Error',
  opening_balance: 'Opening balance',
};

const STATUS_INTENTS: Record<ImportStatus, Intent> = {
  new: Intent.SUCCESS,
  duplicate: Intent.NONE,
  possible_duplicate: Intent.WARNING,
  emi_match: Intent.PRIMARY,
  error: Intent.DANGER,
  opening_balance: Intent.NONE,
};

const MAPPING_FIELDS: [keyof ImportMapping, string][] = [
  ['date', 'Date column'],
  ['narration', 'Narration column'],
  ['debit', 'Withdrawal (debit) column'],
  ['credit', 'Deposit (credit) column'],
  ['amount', 'Single amount column'],
  ['dr_cr', 'Dr/Cr column'],
  ['balance', 'Balance column'],
  ['reference', 'Reference column'],
];

const PAGE_SIZE = 100;

const messageOf = (error: unknown, fallback: string) =>
  isApiError(error) && error.message ? error.message : error instanceof Error ? error.message : fallback;

/** Step 1: the file and the account. */
function UploadForm({ onUploaded }: { onUploaded: (id: string) => void }) {
  const token = useAppSelector((state) => state.session.token);
  const accounts = useGetImportAccountsQuery();
  const [accountId, setAccountId] = useState('');
  const [preset, setPreset] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const list = accounts.data ?? [];
  const chosenAccount = accountId || list[0]?.id || '';

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    const dropped = event.dataTransfer.files[0];
    if (dropped) setFile(dropped);
  };

  async function upload() {
    if (!file || !chosenAccount) return;
    setFailure(null);
    setProgress(0);
    try {
      const id = await uploadStatement(
        token,
        { file, accountId: chosenAccount, preset: preset || undefined },
        setProgress,
      );
      onUploaded(id);
    } catch (error) {
      setFailure(messageOf(error, 'Upload failed'));
    } finally {
      setProgress(null);
    }
  }

  return (
    <Card className="kosh-import-upload">
      {list.length === 0 && !accounts.isLoading ? (
        <Callout intent={Intent.WARNING}>
          Open an account first: a statement is imported into one of your accounts.
        </Callout>
      ) : null}
      <FormGroup label="Account" labelFor="import-account">
        <HTMLSelect
          id="import-account"
          fill
          value={chosenAccount}
          onChange={(event) => setAccountId(event.currentTarget.value)}
          options={list.map((a) => ({
            value: a.id,
            label: `${a.name}${a.last_four ? ` ····${a.last_four}` : ''}${a.bank_name ? ` (${a.bank_name})` : ''}`,
          }))}
        />
      </FormGroup>
      <FormGroup label="Bank layout" labelFor="import-preset">
        <HTMLSelect
          id="import-preset"
          fill
          value={preset}
          onChange={(event) => setPreset(event.currentTarget.value)}
          options={PRESETS.map(([value, label]) => ({ value, label }))}
        />
      </FormGroup>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the file input inside is the keyboard's way */}
      <div className="kosh-import-drop" onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
        <p>Drop a statement here (CSV, TSV, OFX/QFX, QIF; at most 10 MB), or choose it:</p>
        <FileInput
          fill
          text={file ? file.name : 'Choose a statement file…'}
          buttonText="Browse"
          inputProps={{ 'aria-label': 'Statement file', accept: '.csv,.tsv,.txt,.ofx,.qfx,.qif,.xls,.xlsx' }}
          onInputChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
        />
      </div>
      {progress !== null ? (
        <div className="kosh-import-progress" role="status">
          <span>Uploading {Math.round(progress * 100)}%…</span>
          <ProgressBar value={progress} intent={Intent.PRIMARY} />
        </div>
      ) : null}
      {failure ? (
        <Callout intent={Intent.DANGER} role="alert">
          {failure}
        </Callout>
      ) : null}
      <Button
        intent={Intent.PRIMARY}
        disabled={!file || !chosenAccount || progress !== null}
        onClick={upload}
      >
        Read statement
      </Button>
    </Card>
  );
}

/** The detected layout and the mapping, editable: a change reads the file again. */
function MappingCard({ preview }: { preview: ImportPreview }) {
  const [update, { isLoading }] = useUpdateImportMutation();
  const [draft, setDraft] = useState<Partial<ImportMapping>>(preview.mapping ?? {});
  const [failure, setFailure] = useState<string | null>(null);
  async function apply() {
    setFailure(null);
    const mapping = Object.fromEntries(
      Object.entries(draft).filter(([, v]) => typeof v === 'string' && v.trim() !== ''),
    );
    try {
      await update({ id: preview.id, mapping }).unwrap();
    } catch (error) {
      setFailure(messageOf(error, 'The mapping could not be applied'));
    }
  }
  return (
    <Card className="kosh-import-mapping">
      <p>
        <strong>Detected:</strong> {preview.format.toUpperCase()}
        {preview.preset
          ? `, ${preview.preset.bank} layout`
          : preview.mapping_source === 'saved'
            ? ', the columns you chose for this account before'
            : ', your own mapping'}
        {preview.header_line ? ` (header on line ${preview.header_line})` : ''} · {preview.total_rows} rows
      </p>
      {preview.status === 'preview' && (preview.format === 'csv' || preview.format === 'tsv') ? (
        <details>
          <summary>Column mapping</summary>
          <div className="kosh-import-mapping-grid">
            {MAPPING_FIELDS.map(([field, label]) => (
              <FormGroup key={field} label={label} labelFor={`mapping-${field}`}>
                <InputGroup
                  id={`mapping-${field}`}
                  value={draft[field] ?? ''}
                  onChange={(event) => setDraft({ ...draft, [field]: event.currentTarget.value })}
                />
              </FormGroup>
            ))}
          </div>
          {failure ? <Callout intent={Intent.DANGER}>{failure}</Callout> : null}
          <Button onClick={apply} loading={isLoading}>
            Read again with this mapping
          </Button>
        </details>
      ) : null}
    </Card>
  );
}

/** Step 2 and 3: the preview with its status filter, the decisions, the commit and the undo. */
function PreviewStep({ id, onDone }: { id: string; onDone: () => void }) {
  const [status, setStatus] = useState<ImportStatus | ''>('');
  const [page, setPage] = useState(1);
  const preview = useGetImportQuery({ id, status: status || null, page, limit: PAGE_SIZE });
  const [update] = useUpdateImportMutation();
  const [commit, committing] = useCommitImportMutation();
  const [undo, undoing] = useUndoImportMutation();
  const [discard] = useDiscardImportMutation();
  const [confirmMismatch, setConfirmMismatch] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const data = preview.data;
  if (!data) {
    return preview.isError ? (
      <Callout intent={Intent.DANGER}>{messageOf(preview.error, 'Failed to load the preview')}</Callout>
    ) : (
      <p role="status">Loading the preview…</p>
    );
  }
  const mismatch = data.balance_check.first_mismatch;
  const counts = data.counts;
  const pages = data.rows_pagination.total_pages;

  async function onCommit() {
    setFailure(null);
    try {
      const answer = await commit({
        id,
        ...(mismatch ? { confirm_balance_mismatch: confirmMismatch } : {}),
      }).unwrap();
      setDone(answer.message);
    } catch (error) {
      setFailure(messageOf(error, 'The import could not be committed'));
    }
  }
  async function onUndo() {
    setFailure(null);
    try {
      const answer = await undo(id).unwrap();
      setDone(answer.message);
    } catch (error) {
      setFailure(messageOf(error, 'The import could not be undone'));
    }
  }

  return (
    <div className="kosh-import-preview">
      <MappingCard key={JSON.stringify(data.mapping)} preview={data} />
      <section className="kosh-import-counts" aria-label="Rows by status">
        <Tag intent={Intent.SUCCESS}>New {counts.new}</Tag>
        <Tag>Duplicate {counts.duplicate}</Tag>
        <Tag intent={Intent.WARNING}>Possible duplicate {counts.possible_duplicate}</Tag>
        <Tag intent={Intent.PRIMARY}>EMI match {counts.emi_match}</Tag>
        <Tag intent={Intent.DANGER}>Error {counts.error}</Tag>
      </section>
      {data.balance_check.status === 'ok' ? (
        <Callout intent={Intent.SUCCESS}>
          The statement's running balance agrees with the account on every row.
        </Callout>
      ) : null}
      {mismatch ? (
        <Callout intent={Intent.WARNING} title="The statement's balance differs from the account's">
          First at line {mismatch.line}: the file states {formatMoney(mismatch.stated)}, the account would
          hold {formatMoney(mismatch.expected)} (a difference of {formatMoney(mismatch.difference)}).
        </Callout>
      ) : null}
      <FormGroup label="Show" labelFor="import-status-filter" inline>
        <HTMLSelect
          id="import-status-filter"
          value={status}
          onChange={(event) => {
            setStatus(event.currentTarget.value as ImportStatus | '');
            setPage(1);
          }}
          options={[
            { value: '', label: `All rows (${data.total_rows})` },
            ...(['new', 'duplicate', 'possible_duplicate', 'emi_match', 'error'] as const).map((s) => ({
              value: s,
              label: `${STATUS_LABELS[s]} (${counts[s]})`,
            })),
          ]}
        />
      </FormGroup>
      <div className="kosh-import-table-wrap">
        <HTMLTable compact striped className="kosh-import-table">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Date</th>
              <th scope="col">Notes</th>
              <th scope="col" className="kosh-amount">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col">Import?</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row) => (
              <tr key={row.index}>
                <td>{row.line}</td>
                <td>{row.date ? formatDate(row.date) : '—'}</td>
                <td>
                  <div>{row.notes}</div>
                  {row.reason ? <div className="kosh-import-reason">{row.reason}</div> : null}
                  <RuleProposal row={row} />
                </td>
                <td className="kosh-amount">{formatMoney(row.amount)}</td>
                <td>
                  <Tag minimal intent={STATUS_INTENTS[row.status]}>
                    {STATUS_LABELS[row.status]}
                  </Tag>
                </td>
                <td>
                  {data.status === 'preview' && row.status !== 'error' && row.status !== 'opening_balance' ? (
                    <HTMLSelect
                      aria-label={`Import line ${row.line}`}
                      value={row.decision ?? ''}
                      onChange={(event) =>
                        update({
                          id,
                          decisions: [
                            { index: row.index, decision: event.currentTarget.value as 'import' | 'skip' },
                          ],
                        })
                      }
                      options={[
                        ...(row.decision === null ? [{ value: '', label: 'Decide…' }] : []),
                        { value: 'import', label: 'Import' },
                        { value: 'skip', label: 'Skip' },
                      ]}
                    />
                  ) : row.transaction_id ? (
                    'Imported'
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      {pages > 1 ? (
        <div className="kosh-import-pages">
          <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      ) : null}
      {failure ? (
        <Callout intent={Intent.DANGER} role="alert">
          {failure}
        </Callout>
      ) : null}
      {done ? (
        <Callout intent={Intent.SUCCESS} role="status" title="Import summary">
          {done}
        </Callout>
      ) : null}
      <div className="kosh-import-actions">
        {data.status === 'preview' ? (
          <>
            {mismatch ? (
              <Checkbox
                checked={confirmMismatch}
                onChange={(event) => setConfirmMismatch(event.currentTarget.checked)}
                label="The balance differs: record these rows anyway"
              />
            ) : null}
            <Button
              intent={Intent.PRIMARY}
              loading={committing.isLoading}
              disabled={mismatch !== null && !confirmMismatch}
              onClick={onCommit}
            >
              Import {counts.new + counts.emi_match} rows
            </Button>
            <Button
              onClick={async () => {
                await discard(id);
                onDone();
              }}
            >
              Discard
            </Button>
          </>
        ) : null}
        {data.status === 'committed' ? (
          <>
            <span>
              {data.committed?.imported ?? 0} imported, {data.committed?.skipped ?? 0} left out
              {data.committed?.emi_matched ? `, ${data.committed.emi_matched} EMI matched` : ''}.
            </span>
            <Button intent={Intent.DANGER} loading={undoing.isLoading} onClick={onUndo}>
              Undo import
            </Button>
          </>
        ) : null}
        {data.status !== 'preview' ? <Button onClick={onDone}>Import another statement</Button> : null}
      </div>
    </div>
  );
}

/** /import: a statement file → its preview → commit → summary with "Undo import" (issue 30). */
export function ImportPage() {
  const [id, setId] = useState<string | null>(null);
  // An auditor reads the imports through the accounts and the book; an upload is a write.
  if (useReadOnly()) return <ReadOnlyNotice title="Import statement" back="/accounts" />;
  return (
    <div className="kosh-page kosh-import">
      <PageHeader title="Import statement" />
      {id ? <PreviewStep id={id} onDone={() => setId(null)} /> : <UploadForm onUploaded={setId} />}
    </div>
  );
}

/** What the user's rules propose for a row (issue 31): its category and payee, kept on commit. */
function RuleProposal({ row }: { row: ImportRow }) {
  const categories = useGetCategoriesQuery();
  const category = row.proposed_category_id
    ? categories.data?.find((c) => c.id === row.proposed_category_id)
    : undefined;
  const parts = [
    category ? categoryLabel(category, categories.data ?? []) : null,
    row.proposed_payee ? `payee ${row.proposed_payee}` : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return <div className="kosh-import-reason">Rule: {parts.join(' · ')}</div>;
}
