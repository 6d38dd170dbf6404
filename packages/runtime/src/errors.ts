import { HankweaveError } from '@hankweave/types';

export const RUNTIME_ERROR_CODES = [
  'RUNTIME_INVALID_HANK',
  'RUNTIME_HANK_NOT_FOUND',
  'RUNTIME_DATA_NOT_FOUND',
  'RUNTIME_RESERVED_LOCATION',
  'RUNTIME_EXECUTION_EXISTS',
  'RUNTIME_EXECUTION_NOT_EMPTY',
  'RUNTIME_DATA_MISMATCH',
  'RUNTIME_NESTED_EXECUTION',
  'RUNTIME_PROMPT_UNREADABLE',
  'RUNTIME_BAD_COMMAND',
  'RUNTIME_CODON_RUNNING',
  'RUNTIME_NO_CODON_RUNNING',
  'RUNTIME_NO_MORE_CODONS',
  'RUNTIME_UNKNOWN_CODON',
  'RUNTIME_ROLLBACK_IN_PROGRESS',
  'RUNTIME_NO_CHECKPOINT',
  'RUNTIME_SHUTTING_DOWN',
  'RUNTIME_NOT_STARTED',
  'RUNTIME_INTERNAL',
] as const;
export type RuntimeErrorCode = (typeof RUNTIME_ERROR_CODES)[number];

/** Every error the runtime raises itself; `details` name the file, field or codon involved. */
export class RuntimeError extends HankweaveError<RuntimeErrorCode> {
  override readonly name = 'RuntimeError';
}
