import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * compose.yaml passes every setting through an env file (.env beside it) and derives TT_BASE_URL from the
 * published port (docs/operating.md). Docker Compose is not on every test machine: this reads the file and
 * applies Compose's `${VAR:-default}` interpolation (nested defaults included) to what it declares.
 */
interface Service {
  ports: string[];
  env_file: { path: string; required: boolean }[];
  environment: Record<string, string>;
}

/** Compose interpolation of `${VAR}`, `${VAR:-default}` (default itself interpolated), `$$`. */
function interpolate(text: string, env: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('$$', i)) {
      out += '$';
      i++;
    } else if (text.startsWith('${', i)) {
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) depth += text[j] === '{' ? 1 : text[j] === '}' ? -1 : 0;
      const inner = text.slice(i + 2, j - 1);
      const [name, fallback] = inner.includes(':-')
        ? [inner.slice(0, inner.indexOf(':-')), inner.slice(inner.indexOf(':-') + 2)]
        : [inner, ''];
      out += env[name] ? env[name] : interpolate(fallback, env);
      i = j - 1;
    } else out += text[i];
  }
  return out;
}

const compose = parse(readFileSync(new URL('../compose.yaml', import.meta.url), 'utf8')) as { services: { tracking: Service } };
const tracking = compose.services.tracking;
const resolved = (env: Record<string, string>) => ({
  ports: tracking.ports.map((p) => interpolate(p, env)),
  environment: Object.fromEntries(Object.entries(tracking.environment).map(([k, v]) => [k, interpolate(String(v), env)])),
});

describe('compose.yaml', () => {
  it('passes every setting through the .env file, naming only what it must set itself', () => {
    expect(tracking.env_file).toEqual([{ path: '.env', required: false }]);
    // Anything else named here would shadow the env file: CORS, metrics token, REDIS_URL, poller settings … all come from it.
    expect(Object.keys(tracking.environment).sort()).toEqual(['DATABASE_URL', 'PORT', 'TT_BASE_URL']);
  });

  it('derives TT_BASE_URL from the published port, unless TT_BASE_URL is given', () => {
    expect(resolved({})).toMatchObject({ ports: ['4000:4000'], environment: { PORT: '4000', TT_BASE_URL: 'http://localhost:4000' } });
    expect(resolved({ PORT: '4100' })).toMatchObject({
      ports: ['4100:4000'],
      environment: { PORT: '4000', TT_BASE_URL: 'http://localhost:4100' },
    });
    expect(resolved({ PORT: '4100', TT_BASE_URL: 'https://tracking.example.com' }).environment.TT_BASE_URL).toBe(
      'https://tracking.example.com',
    );
    expect(resolved({ TT_DB_PASSWORD: 's3cret' }).environment.DATABASE_URL).toBe('mysql://tracking:s3cret@mariadb:3306/tracking');
  });

  it('listens inside the container on the port the Dockerfile exposes', () => {
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    expect(dockerfile).toMatch(/EXPOSE 4000/);
    expect(tracking.ports[0]).toMatch(/:4000$/);
  });
});
