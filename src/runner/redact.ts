// Replaces every secret the run was given or made (API keys, tokens, webhook secrets) wherever text leaves
// the process: console, reports, error messages.

export const redacted = '[REDACTED]';

/** The environment variables that carry credentials: their values are redacted from everything written. */
export const credentialVariables = ['CLIENT_SESSION_API_KEY', 'CLIENT_SESSION_CLIENT_TOKEN', 'WEBHOOKS_TOKEN'] as const;

// Query parameters whose values are credentials wherever they appear in a URL (a HAR capture, an error message).
const sensitiveQuery = /([?&](?:clientToken|client_token|token|access_token|api_key|apikey|key|secret|signature|sig|password)=)[^&#\s"'<>]+/gi;

export class Redactor {
  private readonly secrets = new Set<string>();

  static fromEnvironment(env: NodeJS.ProcessEnv): Redactor {
    const redactor = new Redactor();
    for (const name of credentialVariables) redactor.add(env[name]);
    return redactor;
  }

  add(secret: string | undefined): void {
    // Very short values would redact ordinary words; none of the credentials we handle is that short.
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }

  redact(text: string): string {
    let result = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      result = result.split(secret).join(redacted);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) result = result.split(encoded).join(redacted);
    }
    // Signatures computed from a secret are as good as the secret to an attacker replaying a payload.
    return result.replace(/\b(sha(?:1|256)=)[0-9a-f]{16,}/gi, `$1${redacted}`).replace(sensitiveQuery, `$1${redacted}`);
  }
}
