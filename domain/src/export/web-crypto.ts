import type { ExportCrypto } from './history-export';

/**
 * `verifyExport`'s crypto on WebCrypto (`crypto.subtle`): the browser's, so the web app checks an
 * export without sending it anywhere (Ed25519 in Chromium 137+, Firefox 129+, Safari 17+; also
 * Node 20's global `crypto`).
 */
export function webExportCrypto(subtle: SubtleCrypto = globalThis.crypto.subtle): ExportCrypto {
  const bytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const encoder = new TextEncoder();
  return {
    async sha256Hex(text) {
      const digest = new Uint8Array(await subtle.digest('SHA-256', encoder.encode(text)));
      return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    },
    async verifyEd25519(publicKey, message, signature) {
      const key = await subtle.importKey('spki', bytes(publicKey), { name: 'Ed25519' }, false, ['verify']);
      return subtle.verify({ name: 'Ed25519' }, key, bytes(signature), encoder.encode(message));
    },
  };
}
