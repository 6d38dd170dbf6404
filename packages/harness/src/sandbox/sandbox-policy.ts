/**
 * What a sandboxed process may do with the file system and the network. Every path not named here
 * stays visible read-only (the whole root is mounted read-only); `/tmp` is a private, empty tmpfs
 * (`TMPDIR=/tmp`); `/dev` is a minimal device tree with a private `/dev/shm`; `/proc` shows only
 * the sandbox's own processes (a PID namespace), and every process in it ends with the command.
 */
export interface SandboxPolicy {
  /** The bubblewrap executable (`bwrap`), as found by `detectSandbox`. */
  bubblewrap: string;
  /**
   * Directories the process may write (bind-mounted read-write; created when missing): the
   * codon's `agentRoot`, the agent's own config or session directory.
   */
  writable: readonly string[];
  /**
   * Paths that stay read-only even inside a writable directory: the data copy at
   * `agentRoot/read_only_data_source`, the data's real path. A path that does not exist is skipped.
   */
  readOnly?: readonly string[];
  /**
   * Paths the process must still read although they lie under `/tmp` (which the private tmpfs
   * would hide): the execution directory, the hank directory, the agent's installation, `HOME`.
   * Paths outside `/tmp` are visible anyway; naming them is harmless.
   */
  readable?: readonly string[];
  /**
   * `host` (default): the host's network, loopback included (the model API, a scripted model on
   * 127.0.0.1). `none`: a network namespace of its own with nothing but its own loopback.
   */
  network?: SandboxNetwork;
}

/** See {@link SandboxPolicy.network}. */
export type SandboxNetwork = 'host' | 'none';

/** The network choices, for option checks. */
export const SANDBOX_NETWORKS: readonly SandboxNetwork[] = ['host', 'none'];

/** A command as it is to be spawned. */
export interface CommandLine {
  command: string;
  args: readonly string[];
  /** The working directory; it must lie in a writable or readable path of the policy. */
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/** The command that runs {@link CommandLine} inside the sandbox (spawned without `cwd` change). */
export interface SandboxedCommandLine {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A copy of `policy` with more paths (what an adapter adds for its agent). */
export function extendSandboxPolicy(
  policy: SandboxPolicy,
  more: {
    writable?: readonly string[];
    readOnly?: readonly string[];
    readable?: readonly string[];
  },
): SandboxPolicy {
  return {
    ...policy,
    writable: [...policy.writable, ...(more.writable ?? [])],
    readOnly: [...(policy.readOnly ?? []), ...(more.readOnly ?? [])],
    readable: [...(policy.readable ?? []), ...(more.readable ?? [])],
  };
}
