export * from './eventstoredb/eventstoredb-event-store';
