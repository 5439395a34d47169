import { describe } from 'vitest';
import { oracleShare } from './oracle-suite';

describe('loan arithmetic against an independent exact oracle, share 1 of 4', () => {
  oracleShare(0, 2500);
});
