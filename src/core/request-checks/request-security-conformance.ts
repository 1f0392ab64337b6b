// request_security_conformance: the request carries the credential one of the operation's Security Requirement
// alternatives asks for (OpenAPI 3.1 section 4.8.30). Presence only: a credential's value never enters a finding.
import { headerValue } from '../exchange.js';
import type { SecurityCredential } from '../compile-request.js';
import { requestFinding, type RequestCheck, type RequestCheckContext } from './request-check-context.js';

export const requestSecurityConformance: RequestCheck = {
  name: 'request_security_conformance',
  applies: (context) => context.compiled.security.length > 0,
  run(context) {
    const alternatives = context.compiled.security;
    if (alternatives.some((alternative) => alternative.every((credential) => present(context, credential)))) return [];
    const wanted = alternatives.map((alternative) => alternative.map(describe).join(' and ')).join(', or ');
    return [
      requestFinding(context, 'request_security_conformance', {
        message: `the request lacks the credential its security requires: ${wanted}`,
      }),
    ];
  },
};

function present(context: RequestCheckContext, credential: SecurityCredential): boolean {
  if (credential.in === 'query') return context.query.has(credential.name);
  if (credential.in === 'cookie') {
    const cookies = headerValue(context.request.headers, 'cookie') ?? '';
    return cookies.split(';').some((pair) => pair.trim().startsWith(`${credential.name}=`));
  }
  const value = headerValue(context.request.headers, credential.name.toLowerCase());
  if (value === undefined || value.trim() === '') return false;
  return (
    credential.prefix === undefined || value.trimStart().toLowerCase().startsWith(`${credential.prefix.toLowerCase()} `)
  );
}

function describe(credential: SecurityCredential): string {
  const prefix = credential.prefix ? ` ${credential.prefix} …` : '';
  return `${credential.in} ${credential.name}${prefix} (scheme ${credential.scheme})`;
}
