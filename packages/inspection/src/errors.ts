import { defineErrorClass } from '@hankweave/types';

/** Every code an {@link InspectionError} can carry. */
export const INSPECTION_ERROR_CODES = [
  'INSPECTION_NOT_FOUND',
  'INSPECTION_INVALID_INPUT',
  'INSPECTION_RUNNING',
] as const;

/** One of {@link INSPECTION_ERROR_CODES}. */
export type InspectionErrorCode = (typeof INSPECTION_ERROR_CODES)[number];

/**
 * The one error class of `@hankweave/inspection`. Match on `code`, never on the message. Every
 * one carries `details.hint`: what a person does next (the CLI prints it after `→`, the
 * dashboard shows it under the message).
 */
export class InspectionError extends defineErrorClass('InspectionError', INSPECTION_ERROR_CODES) {
  constructor(code: InspectionErrorCode, message: string, hint: string) {
    super(code, message, { details: { hint } });
  }

  /** What to do next. */
  get hint(): string {
    return this.details.hint as string;
  }
}

/**
 * How a hint spells a command line for a person to copy: the CLI passes its own (which follows
 * how it was started: `hankweave`, `npx hankweave`, `pnpm hankweave`); the default is the plain
 * `hankweave` command.
 */
export type CommandLine = (...words: string[]) => string;

/** The default {@link CommandLine}: `hankweave` and the words. */
export const plainCommandLine: CommandLine = (...words) => ['hankweave', ...words].join(' ');
