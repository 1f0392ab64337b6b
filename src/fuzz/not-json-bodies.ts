// Bodies that are not JSON, for an operation whose body is JSON (RFC 8259 §2: a JSON text is one value, with only
// whitespace around it): the valid body cut short, the valid body with a stray character after it, and text that
// was never JSON. A server must refuse each with a 4xx; one answered `400 text/html` on Unleash, and a server that
// parses on without a check answers 500. The validators still judge each text (request-model.ts): one that parses
// after all is judged as its value, and a negative case that is valid is never sent.

export interface NotJsonBody {
  note: string;
  text: string;
}

export function notJsonBodies(valid: unknown): NotJsonBody[] {
  const text = JSON.stringify(valid) ?? 'null';
  return [
    { note: 'not JSON: the valid body cut short', text: text.slice(0, Math.max(1, text.length - 1)) },
    { note: 'not JSON: the valid body with a stray "}" after it', text: `${text}}` },
    { note: 'not JSON: plain text', text: 'not json' },
  ];
}
