/** Why a codon's outputs failed: the stage, and the file or command that failed. */
export interface OutputFailure {
  codonId: string;
  stage: 'beforeCopy' | 'copy';
  /** The file (relative to agentRoot) or glob that could not be copied. */
  file?: string;
  /** The beforeCopy command that failed, and its place in the codon's outputFiles. */
  command?: string;
  outputIndex: number;
  message: string;
}
