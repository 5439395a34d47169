import { describe, expect, it } from 'vitest';
import { parseNarration } from './narration';

describe('narrations understood', () => {
  it.each([
    ['UPI-SWIGGY-swiggy@axisbank-UTIB0000553-527411112222-Payment', 'UPI', 'Swiggy', '527411112222'],
    ['UPI/527411112222/Food order/swiggy@axisbank/Axis Bank', 'UPI', 'Swiggy', '527411112222'],
    ['TO TRANSFER-UPI/DR/527411112222/SWIGGY/UTIB/swiggy@axisbank/Payment', 'UPI', 'Swiggy', '527411112222'],
    [
      'BY TRANSFER-UPI/CR/412398765432/RAVI KUMAR/HDFC/ravi@okhdfcbank/rent',
      'UPI',
      'Ravi Kumar',
      '412398765432',
    ],
    [
      'NEFT-HDFCN52024040112345678-ACME SOFTWARE PVT LTD-SALARY APR-0001',
      'NEFT',
      'Acme Software Pvt Ltd',
      'HDFCN52024040112345678',
    ],
    [
      'NEFT CR-YESB0000001-ACME SOFTWARE PVT LTD-ASHA VERMA-YESBN12024040100001',
      'NEFT',
      'Acme Software Pvt Ltd',
      'YESBN12024040100001',
    ],
    [
      'RTGS-UTIBR52024040200012345-SHARMA TRADERS-INVOICE 12',
      'RTGS',
      'Sharma Traders',
      'UTIBR52024040200012345',
    ],
    ['IMPS-412345678901-PRIYA SHAH-HDFC-XXXXXXXX1234-rent', 'IMPS', 'Priya Shah', '412345678901'],
    ['MMT/IMPS/412345678901/rent/PRIYA SHAH/HDFC Bank', 'IMPS', 'Priya Shah', '412345678901'],
    ['ACH D- BAJAJ FINANCE LTD-BFL4020012345', 'ACH', 'Bajaj Finance Ltd', 'BFL4020012345'],
    ['NACH-DR-HDFC BANK LTD-UMRN0000123456789', 'NACH', 'Hdfc Bank Ltd', 'UMRN0000123456789'],
    ['ECS DR LIC OF INDIA 987654', 'ECS', 'Lic Of India', '987654'],
    ['SI 12345678 LIC PREMIUM', 'SI', 'Lic Premium', '12345678'],
    ['POS 412345XXXXXX1234 AMAZON RETAIL', 'POS', 'Amazon Retail', '412345XXXXXX1234'],
    ['ATW-412345XXXXXX1234-S1ANMU12-MUMBAI', 'ATM', 'Mumbai', '412345XXXXXX1234'],
    ['NWD-412345XXXXXX1234-SBIN0001-PUNE', 'ATM', 'Pune', '412345XXXXXX1234'],
    ['Int.Pd:50100123456789:01-04-2024 to 30-06-2024', 'Interest', null, '50100123456789'],
    ['Credit Interest', 'Interest', null, null],
    ['SMS ALERT CHARGES', 'Charges', null, null],
    ['GST ON SMS CHARGES', 'Charges', null, null],
  ])('%s', (raw, channel, counterparty, reference) => {
    expect(parseNarration(raw)).toMatchObject({ channel, counterparty, reference, raw });
  });

  it('notes read well: "UPI · Swiggy · 527411112222"', () => {
    expect(parseNarration('UPI-SWIGGY-swiggy@axisbank-UTIB0000553-527411112222-Payment').notes).toBe(
      'UPI · Swiggy · 527411112222',
    );
    expect(parseNarration('SMS ALERT CHARGES').notes).toBe('Charges · SMS ALERT CHARGES');
    expect(parseNarration('CHQ DEP 000123 RAVI')).toMatchObject({
      channel: null,
      notes: 'CHQ DEP 000123 RAVI',
    });
  });

  it('notes stay within 255 characters; the raw narration is kept whole', () => {
    const raw = `UPI-${'VERY LONG MERCHANT NAME '.repeat(20)}-m@ybl-YESB0YBLUPI-527411112222-x`;
    const parsed = parseNarration(raw);
    expect([...parsed.notes].length).toBe(255);
    expect(parsed.notes.endsWith('…')).toBe(true);
    expect(parsed.raw).toBe(raw);
  });
});
