// Replaces every secret the run was given or made (API keys, tokens, webhook secrets) wherever text leaves
// the process: console, reports, error messages.

export const redacted = '[REDACTED]';

export class Redactor {
  private readonly secrets = new Set<string>();

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
    return result.replace(/\b(sha(?:1|256)=)[0-9a-f]{16,}/gi, `$1${redacted}`);
  }
}
