import { auditAccount, readsAuditedAccount } from '../audit/auditMode';

/**
 * A file the API answers (a PDF, a CSV) needs the session's token, which a plain link cannot
 * carry: it is fetched with it and handed to the browser as a download. When it failed: the
 * server's own message where it sent one (a 422 saying how to narrow an export), else null.
 */
export async function downloadWithToken(
  token: string | null,
  url: string,
  fileName: string,
): Promise<true | { message: string | null }> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  // In audit mode the file is the audited account's, as every read is (baseApi's prepareHeaders).
  const audited = auditAccount();
  if (audited && readsAuditedAccount(url.replace(/^\/api\//, '')))
    headers['X-Kosh-Account'] = audited.ownerUserId;
  const answer = await fetch(url, { headers }).catch(() => null);
  if (!answer?.ok) {
    const body = await answer
      ?.json()
      .catch(() => null as unknown)
      .then((json) => json as { errors?: { message?: unknown }[]; message?: unknown } | null);
    const message = body?.errors?.[0]?.message ?? body?.message;
    return { message: typeof message === 'string' ? message : null };
  }
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
