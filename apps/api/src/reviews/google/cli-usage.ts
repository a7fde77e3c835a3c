// The `google` commands' usage and their refusal, apart from the commands themselves: the CLI
// names them in its help without loading what they need.

export const GOOGLE_USAGE = `  google connect --business <slug|id> --account <account id> --location <location id> --refresh-token-file <file>
  google disconnect --business <slug|id>
  google status [--business <slug|id>]`;

export class GoogleUsageError extends Error {
  override name = 'GoogleUsageError';
}
