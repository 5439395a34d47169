export * from './format';
export * from './paise';
