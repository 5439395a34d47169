/** Node's side of the export check (`npm run verify-export`, tests). */
import { createPublicKey, verify } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sha256Hex } from './export';

export const nodeExportCrypto = {
  sha256Hex,
  verifyEd25519(publicKey: string, message: string, signature: string): boolean {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64'));
  },
};

export async function trustedKey(value: string | undefined): Promise<string | undefined> {
  if (!value) return undefined;
  if (/^https?:\/\//.test(value)) {
    const answer = (await (await fetch(value)).json()) as { data?: { public_key?: string } };
    return answer.data?.public_key;
  }
  if (/^[A-Za-z0-9+/=]{40,}$/.test(value)) return value;
  return (await readFile(value, 'utf8')).trim();
}
