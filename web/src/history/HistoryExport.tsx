import { Button, Callout, Card, FileInput, H2 } from '@blueprintjs/core';
import { type VerifyResult, verifyExport, webExportCrypto } from '@kosh/domain';
import { useState } from 'react';
import { useAppSelector } from '../app/store';
import { todayIso } from '../format';
import { toast } from '../toaster';
import { useLazyGetExportPublicKeyQuery } from './historyApi';
import './history.css';

type Check = { file: string; result: VerifyResult } | { file: string; failure: string };

/** Saves a downloaded body under `name` (an object URL clicked as a download link). */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function fileNameOf(disposition: string | null): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? `kosh-history-${todayIso()}.jsonl`;
}

/**
 * /profile's history export: download the signed JSON Lines export, and verify one in the browser
 * (the domain's checker on WebCrypto; the file never leaves the machine) against the server key.
 */
export function HistoryExport() {
  const token = useAppSelector((state) => state.session.token);
  const [downloading, setDownloading] = useState(false);
  const [checking, setChecking] = useState(false);
  const [check, setCheck] = useState<Check | null>(null);
  const [publicKey] = useLazyGetExportPublicKeyQuery();

  const download = async () => {
    setDownloading(true);
    try {
      const response = await fetch('/api/export/history', {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { message?: string } | null;
        toast.error(body?.message ?? 'Failed to download the history export');
        return;
      }
      save(await response.blob(), fileNameOf(response.headers.get('Content-Disposition')));
      toast.success('History export downloaded');
    } catch {
      toast.error('Failed to download the history export');
    } finally {
      setDownloading(false);
    }
  };

  const verify = async (file: File | undefined) => {
    if (!file) return;
    setChecking(true);
    setCheck(null);
    try {
      const key = await publicKey(undefined, true).unwrap();
      const result = await verifyExport(await file.text(), webExportCrypto(), key.publicKey);
      setCheck({ file: file.name, result });
    } catch {
      setCheck({
        file: file.name,
        failure: 'The export could not be checked (the server key did not load).',
      });
    } finally {
      setChecking(false);
    }
  };

  return (
    <Card className="kosh-history-export">
      <div className="kosh-card-header">
        <H2 className="kosh-card-title">History Export</H2>
      </div>
      <p className="kosh-muted">
        Every change on your account as JSON Lines, each line chained to the one before by its SHA-256 and the
        whole signed by the server, so any altered, removed or reordered line shows.
      </p>
      <div className="kosh-form-actions kosh-export-actions">
        <Button icon="download" text="Download history export" loading={downloading} onClick={download} />
      </div>
      <label className="kosh-export-verify" htmlFor="history-export-file">
        <span>Verify an export</span>
        <FileInput
          fill
          text={check?.file ?? 'Choose an export file...'}
          buttonText="Browse"
          inputProps={{ id: 'history-export-file', accept: '.jsonl,.ndjson,application/x-ndjson,text/plain' }}
          onInputChange={(e) => {
            const input = e.currentTarget as HTMLInputElement;
            void verify(input.files?.[0]);
            input.value = '';
          }}
        />
      </label>
      <div aria-live="polite" role="status" className="kosh-export-result">
        {checking ? <span className="kosh-muted">Checking the export...</span> : null}
        {check ? <CheckResult check={check} /> : null}
      </div>
    </Card>
  );
}

function CheckResult({ check }: { check: Check }) {
  if ('failure' in check)
    return (
      <Callout intent="danger" icon="error" title="Not checked">
        {check.failure}
      </Callout>
    );
  const { result } = check;
  if (result.ok)
    return (
      <Callout intent="success" icon="endorsed" title="Export OK">
        {check.file}: {result.count} {result.count === 1 ? 'event' : 'events'}, signed by this server on{' '}
        {new Date(result.exportedAt).toLocaleString('en-IN')}; no line was altered, removed or reordered.
      </Callout>
    );
  return (
    <Callout intent="danger" icon="error" title={`Export altered at line ${result.line}`}>
      {check.file}: {result.reason}.
    </Callout>
  );
}
