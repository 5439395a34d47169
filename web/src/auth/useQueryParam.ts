import { useSearch } from 'wouter';

export function useQueryParam(name: string): string | null {
  return new URLSearchParams(useSearch()).get(name);
}
