import { describe, expect, it } from 'vitest';
import { createStreamRedactor } from '../src/core/safety/secrets/redact-stream.js';
import { MIN_SECRET_LENGTH, Redactor, redactingLogger, redactorFromEnvironment } from '../src/core/safety/secrets/redact.js';
import { loadCleanEntries, loadSecretEntries } from './fixtures/secret-corpus/load.js';

const secrets = loadSecretEntries();
const clean = loadCleanEntries();

describe('secret formats on the written corpus', () => {
  it('holds enough cases to mean something', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(40);
    expect(clean.length).toBeGreaterThanOrEqual(40);
    expect(new Set(secrets.map((s) => s.label)).size).toBeGreaterThanOrEqual(14);
  });

  // Catches: a format no rule recognises (recall), a rule that eats the text around the key (a URL's host,
  // a JSON quote), or a key labelled as the wrong kind.
  it.each(secrets.map((s) => [s.name, s] as const))('redacts exactly the secret: %s', (_name, entry) => {
    const redacted = new Redactor().redact(entry.text);
    expect(redacted).toBe(entry.text.split(entry.secret).join(`[REDACTED:${entry.label}]`));
  });

  // Catches: false positives on SHAs, UUIDs, base64, `task-list`, env references and ordinary code.
  it.each(clean.map((c) => [c.name, c.text] as const))('leaves look-alikes alone: %s', (_name, text) => {
    expect(new Redactor().redact(text)).toBe(text);
  });

  it('scores precision and recall 1.0 over the whole corpus', () => {
    const redactor = new Redactor();
    const truePositives = secrets.filter((s) => !redactor.redact(s.text).includes(s.secret)).length;
    const falsePositives = clean.filter((c) => redactor.redact(c.text) !== c.text).length;
    expect({ recall: truePositives / secrets.length, precision: truePositives / (truePositives + falsePositives) }).toEqual({ recall: 1, precision: 1 });
  });

  // Catches: JSON tool output turned invalid because the replacement split an escaped quote pair.
  it('keeps JSON parseable when it redacts inside escaped strings', () => {
    const json = JSON.stringify({ log: 'config {"refresh_token": "abcdef123456abcdef"} and export API_TOKEN="zz9-plural-z-alpha"' });
    const redacted = new Redactor().redact(json);
    const parsed = JSON.parse(redacted) as { log: string };
    expect(parsed.log).not.toContain('abcdef123456abcdef');
    expect(parsed.log).not.toContain('zz9-plural-z-alpha');
  });
});

describe('known values', () => {
  // Catches: values used as a raw regex (a `+`, `.`, `(` or `$` in a password would break or widen the match).
  it('redacts values full of regex metacharacters, literally', () => {
    const redactor = new Redactor();
    const value = 'p@ss.w*rd+(x)$^[1]{2}|\\/?-';
    expect(redactor.addSecret(value, 'env:DB_PASSWORD')).toBe(true);
    expect(redactor.redact(`login with ${value} now`)).toBe('login with [REDACTED:env:DB_PASSWORD] now');
    // The same characters in another order are not the secret.
    expect(redactor.redact('p@ssXw*rd+(x)$^[1]{2}|\\/?-')).toBe('p@ssXw*rd+(x)$^[1]{2}|\\/?-');
  });

  // Catches: short values registered anyway, which would shred ordinary output ("true", "1234").
  it(`ignores values shorter than ${MIN_SECRET_LENGTH} characters`, () => {
    const redactor = new Redactor();
    expect(redactor.addSecret('true', 'env:X_TOKEN')).toBe(false);
    expect(redactor.redact('it is true')).toBe('it is true');
  });

  // Catches: a shorter secret inside a longer one replaced first, leaving the longer one's remains visible.
  it('redacts the longer of two overlapping values whole', () => {
    const redactor = new Redactor();
    redactor.addSecret('abcd1234efgh', 'short');
    redactor.addSecret('abcd1234efgh5678ijkl', 'long');
    expect(redactor.redact('x abcd1234efgh5678ijkl y abcd1234efgh z')).toBe('x [REDACTED:long] y [REDACTED:short] z');
  });

  // Catches: a key Hearth knows with no recognisable format (a custom provider) leaking; secret-named env vars missed.
  it('takes secret-looking variables from the environment, and only those', () => {
    const redactor = redactorFromEnvironment(
      { MY_PROVIDER_API_KEY: 'plainwordsecretvalue', GITHUB_TOKEN: 'tokenvalue99', DB_PASSWORD: 'correcthorse', HOME: '/home/someone', EDITOR: 'vim-editor-x' },
      [{ value: 'keychainstoredvalue', label: 'keychain:provider:openai' }],
    );
    const text = 'plainwordsecretvalue tokenvalue99 correcthorse /home/someone vim-editor-x keychainstoredvalue';
    expect(redactor.redact(text)).toBe(
      '[REDACTED:MY_PROVIDER_API_KEY] [REDACTED:GITHUB_TOKEN] [REDACTED:DB_PASSWORD] /home/someone vim-editor-x [REDACTED:keychain:provider:openai]',
    );
  });

  // Catches: the logger helper writing the raw line.
  it('redacts what a wrapped logger writes', () => {
    const written: string[] = [];
    const log = redactingLogger(redactorFromEnvironment({ OPENAI_API_KEY: 'secret-value-123' }), (line) => written.push(line));
    log('hearth serve: POST /chat failed: 401 for key secret-value-123');
    expect(written).toEqual(['hearth serve: POST /chat failed: 401 for key [REDACTED:OPENAI_API_KEY]']);
  });
});

describe('streaming', () => {
  const filler = 'building... [####------] 40% '.repeat(12);
  const longJwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: 'user-42', scopes: 'read write admin '.repeat(20) })).toString('base64url')}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;
  const cases = [
    { name: 'github token', text: `${filler}\nremote: token ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A end\n` },
    { name: 'long jwt (longer than the held tail)', text: `${filler}Cookie: s=${longJwt}; Path=/\n${filler}` },
    { name: 'bearer header', text: `${filler}curl -H 'Authorization: Bearer 4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c' x\n` },
    { name: 'known value with metacharacters', text: `${filler}password is p@ss.w*rd+(x)$^[1] ok\n`, known: 'p@ss.w*rd+(x)$^[1]' },
    {
      name: 'private key block',
      text: `${filler}\n-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n'.repeat(6)}-----END RSA PRIVATE KEY-----\ndone\n`,
    },
  ];

  function redactorFor(known?: string): Redactor {
    const redactor = new Redactor();
    if (known !== undefined) redactor.addSecret(known, 'known');
    return redactor;
  }

  // Catches: a key split across two chunks emitted in halves, neither of which matches a pattern on its own.
  it.each(cases.map((c) => [c.name, c] as const))('a secret split at every offset never escapes: %s', (_name, { text, known }) => {
    const expected = redactorFor(known).redact(text);
    for (let offset = 0; offset <= text.length; offset++) {
      const stream = createStreamRedactor(redactorFor(known));
      const out = stream.push(text.slice(0, offset)) + stream.push(text.slice(offset)) + stream.flush();
      if (out !== expected) expect({ offset, out }).toEqual({ offset, out: expected });
    }
  });

  // Catches: the hold-back logic only working for one split: here every push is tiny, so each secret grows a character at a time.
  it.each([1, 3, 7, 64])('chunks of %i characters come out exactly as redacting the whole text', (size) => {
    for (const { text, known } of cases) {
      const stream = createStreamRedactor(redactorFor(known));
      let out = '';
      for (let i = 0; i < text.length; i += size) out += stream.push(text.slice(i, i + size));
      expect(out + stream.flush()).toBe(redactorFor(known).redact(text));
    }
  });

  // Catches: a stream that holds everything until flush (live progress would stall) instead of a bounded tail.
  it('holds back only a bounded tail of ordinary output', () => {
    const stream = createStreamRedactor(new Redactor());
    const emitted = stream.push('x'.repeat(10_000));
    expect(emitted.length).toBe(10_000 - 256);
    expect(stream.flush()).toBe('x'.repeat(256));
  });

  // Catches: a private key longer than the hold limit leaking its body after the placeholder went out.
  it('drops the rest of a private key block that outgrew the hold limit', () => {
    const stream = createStreamRedactor(new Redactor(), { maxHeld: 300 });
    const body = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2\n'.repeat(40);
    const text = `start\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body}-----END OPENSSH PRIVATE KEY-----\nafter the key\n`;
    let out = '';
    for (let i = 0; i < text.length; i += 50) out += stream.push(text.slice(i, i + 50));
    out += stream.flush();
    expect(out).not.toContain('QUJDREVG');
    expect(out).toContain('[REDACTED:private-key]');
    expect(out.endsWith('after the key\n')).toBe(true);
  });
});
