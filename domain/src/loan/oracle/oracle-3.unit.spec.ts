import { describe } from 'vitest';
import { oracleShare } from './oracle-suite';

describe('loan arithmetic against an independent exact oracle, share 3 of 4', () => {
  oracleShare(5000, 2500);
});
