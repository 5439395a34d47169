import { randomBytes } from 'node:crypto';

/** A multipart body of a statement file (`file`) and the form fields, as a browser sends an upload. */
export function statementForm(fileName: string, bytes: Buffer | string, fields: Record<string, string>) {
  const boundary = `----kosh${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
  );
  parts.push(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
