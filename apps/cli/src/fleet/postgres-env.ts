// Apart from `postgres-options.ts`, which loads `pg`: flag descriptions name it in the help.

/** The environment variable that stands in for `--postgres`. */
export const POSTGRES_URL_ENV = 'HANKWEAVE_POSTGRES_URL';
