import Ajv from 'ajv';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';
import { appPackage, scanApp } from './app-package.cjs';

const ROOT = join(__dirname, '..');
const APPS = readdirSync(join(ROOT, 'apps')).filter((app) => existsSync(join(ROOT, 'apps', app, 'src', 'main.ts')));
// The flags and ports the development stack runs every service with; required by path, as tools/ lies outside the project graph.
const { SERVICE_NODE_FLAGS, DEFAULT_PORTS } = createRequire(__filename)(join(ROOT, 'tools', 'dev', 'lib', 'stack.cjs')) as {
  SERVICE_NODE_FLAGS: readonly string[];
  DEFAULT_PORTS: Readonly<Record<string, number>>;
};

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | number>;
  command?: string[];
}
// with YAML merge keys resolved, as Compose reads them
const compose = parse(readFileSync(join(__dirname, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const envExampleNames = new Set([...readFileSync(join(ROOT, '.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));

describe('docker/compose.yaml', () => {
  it('is valid under the Compose Specification schema (as shipped by the docker-compose npm package)', () => {
    const schema = JSON.parse(readFileSync(require.resolve('docker-compose/schema/compose-spec.json'), 'utf8')) as object;
    // The schema names its draft without the trailing '#' that ajv's draft-07 meta-schema id has: skip the meta-check.
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
    const validate = ajv.compile(schema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    // and the check itself catches a mistake
    expect(validate({ services: { gateway: { ports: 3000, restart: 'sometimes', unknown: true } } })).toBe(false);
  });

  it('runs Kafka (official Apache image, KRaft), PostgreSQL, and every app from its own Dockerfile on its port', () => {
    expect(compose.services.kafka.image).toMatch(/^apache\/kafka:3\.9\./);
    expect(compose.services.kafka.environment).toMatchObject({ KAFKA_PROCESS_ROLES: 'broker,controller', KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false' });
    expect(compose.services.postgres.image).toMatch(/^postgres:/);
    for (const app of APPS) {
      const service = compose.services[app];
      expect({ app, build: service?.build }).toEqual({ app, build: { context: '..', dockerfile: `docker/${app}.Dockerfile` } });
      expect(service.environment?.PORT).toBe(DEFAULT_PORTS[app]);
      expect(service.command?.join(' ')).toContain(`node dist/apps/${app}/src/migrate.js && exec node dist/apps/${app}/src/main.js`);
    }
  });

  it('configures the services with the names of .env.example only', () => {
    for (const app of APPS) {
      const unknown = Object.keys(compose.services[app].environment ?? {}).filter((name) => !envExampleNames.has(name));
      expect({ app, unknown }).toEqual({ app, unknown: [] });
    }
  });
});

describe.each(APPS)('docker/%s.Dockerfile', (app) => {
  const dockerfile = readFileSync(join(__dirname, `${app}.Dockerfile`), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('is multi-stage and runs the compiled app as a non-root user, with a health check', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*\/health/m);
    expect(runtime).toContain(`CMD ["node", "dist/apps/${app}/src/main.js"]`);
    // the public port and the internal metrics port of production (METRICS_PORT, default PORT + 1000)
    expect(runtime).toContain(`EXPOSE ${DEFAULT_PORTS[app]} ${DEFAULT_PORTS[app] + 1000}`);
    expect(runtime).not.toMatch(/npm install|COPY \. /);
  });

  it("installs with the project's .npmrc (onnxruntime-node's install script must not download CUDA libraries)", () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    for (const stage of stages.filter((s) => /^RUN npm install/m.test(s))) {
      const npmrc = stage.search(/^COPY [^\n]*\.npmrc /m);
      expect(npmrc).toBeGreaterThanOrEqual(0);
      expect(npmrc).toBeLessThan(stage.search(/^RUN npm install/m));
    }
  });

  it('runs node with the V8 flags the development stack uses (memory targets, issue 8)', () => {
    expect(runtime).toContain(`ENV NODE_OPTIONS="${SERVICE_NODE_FLAGS.join(' ')}"`);
  });

  it('builds the app and every library it loads, and installs only the packages it loads', () => {
    const build = /node tools\/dev\/swc-build\.mjs ([^\\\n&]+)/.exec(dockerfile)?.[1].trim().split(/\s+/) ?? [];
    expect(build).toContain(`apps/${app}`);
    for (const lib of scanApp(app).libraries) expect(build).toContain(`libs/${lib}`);
    expect(dockerfile).toContain(`node docker/app-package.cjs ${app} > /out/package.json`);
    expect(dockerfile).toMatch(/npm install --omit=dev/);
  });
});

describe('docker/responder-service.Dockerfile', () => {
  const dockerfile = readFileSync(join(__dirname, 'responder-service.Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('fetches the embedding model while building and ships it, so the service downloads nothing at run time', () => {
    const [build] = dockerfile.split(/^FROM /m).slice(1);
    expect(build).toMatch(/^node:\S+ AS build\n/);
    expect(build).toContain('RUN node tools/models/models.mjs fetch');
    expect(runtime).toContain('COPY --from=build /repo/.models ./.models');
    expect(runtime).toMatch(/^ENV PARLEY_MODELS_DIR=\/app\/\.models$/m);
    // a local .models/ never reaches the build context; the build fetches and verifies its own
    expect(readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n')).toContain('.models');
  });
});

describe('docker/app-package.cjs', () => {
  const workspace = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

  it.each(APPS)("%s: the image's package.json has the app's version and only production packages it loads", (app) => {
    const pkg = appPackage(app);
    expect(pkg.version).toBe((JSON.parse(readFileSync(join(ROOT, 'apps', app, 'package.json'), 'utf8')) as { version: string }).version);
    expect(existsSync(join(ROOT, 'apps', app, 'CHANGELOG.md'))).toBe(true);
    for (const [name, version] of Object.entries(pkg.dependencies)) expect({ name, version }).toEqual({ name, version: workspace.dependencies[name] });
    // what Nest and TypeORM load by name at run time is there; the dashboard's browser packages are not
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['@nestjs/core', 'typeorm', 'pg', 'kafkajs', 'class-validator']));
    expect(Object.keys(pkg.dependencies)).not.toEqual(expect.arrayContaining(['react']));
  });

  it('keeps app-specific packages to their app', () => {
    expect(appPackage('gateway').dependencies).toHaveProperty('@nestjs/swagger');
    expect(appPackage('responder-service').dependencies).toHaveProperty('tinyld');
    expect(appPackage('webhook-service').dependencies).not.toHaveProperty('@nestjs/swagger');
    expect(appPackage('gateway').dependencies).not.toHaveProperty('tinyld');
  });
});
