// The SQL dialects the metadata store runs on: its own module so connect.ts and migrations.ts both
// import it without importing each other.
export type Dialect = 'sqlite' | 'postgres';
