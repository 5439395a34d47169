import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { downloadWithToken } from '../api/download';
import { useAppSelector } from '../app/store';
import { asOfParams } from '../history/asOf';
import { toast } from '../toaster';

/** Downloads a report's `.csv` twin with the same query (and as-of date) as the screen shows. */
export function ExportCsvButton({
  path,
  query = {},
  asOf,
  fileName,
}: {
  /** e.g. `/api/reports/net-worth.csv` */
  path: string;
  query?: Record<string, string>;
  asOf: string | null;
  fileName: string;
}) {
  const token = useAppSelector((state) => state.session.token);
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    const params = new URLSearchParams({ ...query, ...asOfParams(asOf) }).toString();
    const ok = await downloadWithToken(token, `${path}${params ? `?${params}` : ''}`, fileName);
    setBusy(false);
    if (!ok) toast.error('Failed to export the report');
  };
  return <Button icon="download" text="Export CSV" loading={busy} onClick={exportCsv} />;
}

/** A figure's colour: red below zero, green above, plain at zero. */
export const signClass = (value: number) => (value < 0 ? 'kosh-negative' : value > 0 ? 'kosh-positive' : '');
