import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { downloadWithToken } from '../api/download';
import { useAppSelector } from '../app/store';
import { toast } from '../toaster';

/**
 * "Export CSV": downloads `url` (an /api/….csv answer) as `fileName`. `what` names the export in
 * the failure toast ("the register").
 */
export function ExportCsvButton({
  url,
  fileName,
  what,
  disabled = false,
}: {
  url: string;
  fileName: string;
  what: string;
  disabled?: boolean;
}) {
  const token = useAppSelector((state) => state.session.token);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    const done = await downloadWithToken(token, url, fileName);
    setBusy(false);
    if (done !== true) toast.error(done.message ?? `Failed to export ${what}`);
  };
  return <Button icon="export" text="Export CSV" loading={busy} disabled={disabled} onClick={download} />;
}
