/** JSON with 2-space indentation and a final newline, as every hankweave file is written. */
export const toJsonFile = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
