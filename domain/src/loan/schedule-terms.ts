import type { Paise } from '../money/paise';

/** The inputs a schedule was computed from (a change to any of them makes a new version). */
export type ScheduleTerms = Readonly<{
  principalAmount: Paise;
  interestRate: number;
  isInterestRateYearly: boolean;
  duration: number;
  isDurationYearly: boolean;
  startDate: string;
  hasGst: boolean;
  gstPercentage: number;
}>;
