/**
 * Browser and system of a session, from its User-Agent header, by a few rules (issue 32): enough
 * to recognise a session in the list and to tell a new browser, not a full parser. Order matters:
 * Edge and Opera also say Chrome, Chrome also says Safari, Android also says Linux.
 */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\/\d/, 'Edge'],
  [/\b(OPR|Opera)\/\d/, 'Opera'],
  [/\bSamsungBrowser\/\d/, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\/\d/, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium|HeadlessChrome)\/\d/, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\/\d/, 'Safari'],
  [/\bcurl\/\d/, 'curl'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bWindows NT\b/, 'Windows'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (rules: readonly [RegExp, string][], agent: string, fallback: string) =>
  rules.find(([pattern]) => pattern.test(agent))?.[1] ?? fallback;

export function parseUserAgent(agent: string | undefined): { browser: string; os: string } {
  const text = (agent ?? '').slice(0, 512);
  return { browser: first(BROWSERS, text, 'Unknown browser'), os: first(SYSTEMS, text, 'unknown system') };
}
