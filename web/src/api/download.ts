import { auditAccount, readsAuditedAccount } from '../audit/auditMode';

/**
 * A file the API answers (a PDF, a CSV) needs the session's token, which a plain link cannot
 * carry: it is fetched with it and handed to the browser as a download. False when it failed.
 */
export async function downloadWithToken(
  token: string | null,
  url: string,
  fileName: string,
): Promise<boolean> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  // In audit mode the file is the audited account's, as every read is (baseApi's prepareHeaders).
  const audited = auditAccount();
  if (audited && readsAuditedAccount(url.replace(/^\/api\//, '')))
    headers['X-Kosh-Account'] = audited.ownerUserId;
  const answer = await fetch(url, { headers }).catch(() => null);
  if (!answer?.ok) return false;
  const file = URL.createObjectURL(await answer.blob());
  const link = document.createElement('a');
  link.href = file;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(file), 60_000);
  return true;
}
