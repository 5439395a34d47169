import { actualSchedule as fresh } from './domain/src/loan/actual-schedule';
import { actualSchedule as old } from '/tmp/olddomain/domain/src/loan/actual-schedule';
const t = { principalAmount: 500000000, interestRate: 8.75, isInterestRateYearly: true, duration: 50, isDurationYearly: true, startDate: '2024-01-31', hasGst: true, gstPercentage: 18 };
const res: Record<string, number[]> = { old: [], new: [] };
for (let round = 0; round < 8; round++) for (const [name, f] of (round % 2 ? [['old', old], ['new', fresh]] : [['new', fresh], ['old', old]]) as [string, typeof old][]) {
  for (let i = 0; i < 50; i++) f(t, []);
  const s = performance.now();
  for (let i = 0; i < 500; i++) f(t, []);
  res[name]!.push((performance.now() - s) / 500);
}
for (const k of ['old', 'new']) console.log(k, 'min', Math.min(...res[k]!).toFixed(3), 'median', res[k]!.sort()[4]!.toFixed(3));
