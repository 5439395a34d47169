import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';

export type Rule = wire.WireRule;
export type RuleChange = wire.WireRuleChange;
export type RuleApply = wire.RuleApplyResponse['data'];

/** What the rule dialog sends: money in rupees, blank fields as null. */
export type RuleBody = {
  name: string;
  match_text: string | null;
  match_pattern: string | null;
  amount_min: number | null;
  amount_max: number | null;
  account_id: string | null;
  transaction_type: 'C' | 'D' | null;
  category_id: string | null;
  payee: string | null;
};

const rulesChanged = [{ type: 'Rule', id: 'LIST' }, 'History'] as const;

export const rulesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRules: build.query<Rule[], void>({
      extraOptions: { errorFallback: 'Failed to load rules' },
      query: () => ({ url: '/rules' }),
      transformResponse: (answer: wire.RuleListResponse) => answer.data.rules,
      providesTags: [{ type: 'Rule', id: 'LIST' }],
    }),
    createRule: build.mutation<wire.RuleResponse, { body: RuleBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to create rule' },
      query: ({ body, idempotencyKey }) => ({
        url: '/rules',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...rulesChanged],
    }),
    updateRule: build.mutation<wire.RuleResponse, { id: string; body: RuleBody }>({
      extraOptions: { errorFallback: 'Failed to update rule' },
      query: ({ id, body }) => ({ url: `/rules/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [...rulesChanged],
    }),
    deleteRule: build.mutation<wire.MessageResponse, string>({
      extraOptions: { errorFallback: 'Failed to delete rule' },
      query: (id) => ({ url: `/rules/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [...rulesChanged],
    }),
    /** A dry run (what would change) or the application itself. */
    applyRule: build.mutation<RuleApply, { id: string; dryRun: boolean }>({
      extraOptions: { errorFallback: 'Failed to apply rule' },
      query: ({ id, dryRun }) => ({
        url: `/rules/${encodeURIComponent(id)}/apply`,
        method: 'POST',
        body: { dry_run: dryRun },
      }),
      transformResponse: (answer: wire.RuleApplyResponse) => answer.data,
      invalidatesTags: (_r, _e, { dryRun }) =>
        dryRun
          ? []
          : [...rulesChanged, { type: 'Transaction', id: 'LIST' }, { type: 'Category', id: 'LIST' }],
    }),
  }),
});

export const {
  useGetRulesQuery,
  useCreateRuleMutation,
  useUpdateRuleMutation,
  useDeleteRuleMutation,
  useApplyRuleMutation,
} = rulesApi;
