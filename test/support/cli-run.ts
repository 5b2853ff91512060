import { runCli, type CliContext } from '../../src/cli/program.js';

/** What an operator sees of one `tracking …` run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `tracking <args>` in-process, as the binary would, and captures its output. */
export async function runCaptured(
  args: readonly string[],
  context: Pick<CliContext, 'env' | 'database'> & Partial<Pick<CliContext, 'stdin' | 'now'>>,
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdin: context.stdin ?? process.stdin,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: context.env,
    now: context.now ?? (() => new Date()),
    ...(context.database ? { database: context.database } : {}),
  });
  return { code, stdout, stderr };
}
