import { BaseConfig, METRICS_PATH, loadConfig } from '@parley/service-kit';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

// Checks of deploy/kubernetes (kubectl apply -k) against docker/compose.yaml, the Dockerfiles and the services' own
// config classes, so the manifests cannot drift from the code; no I/O besides reading files, no cluster.

const ROOT = join(__dirname, '..');
const K8S = join(ROOT, 'deploy', 'kubernetes');
/** Development and tests only: never in the production manifests. */
const SANDBOX = 'whatsapp-sandbox';

interface ComposeService {
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | number>;
  command?: string[];
  ports?: string[];
}
interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
}
interface Port {
  name?: string;
  containerPort: number;
}
interface HttpProbe {
  httpGet?: { path: string; port: number | string };
}
interface Resources {
  requests?: { cpu?: string; memory?: string };
  limits?: { cpu?: string; memory?: string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: Port[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: { name: string; value?: string }[];
  startupProbe?: HttpProbe;
  readinessProbe?: HttpProbe;
  livenessProbe?: HttpProbe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: Resources;
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
}
interface Deployment extends Manifest {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    strategy?: { type: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds?: number;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
        initContainers?: Container[];
        containers: Container[];
      };
    };
  };
}
interface Service extends Manifest {
  spec: { selector: Record<string, string>; ports: { name: string; port: number; targetPort: number | string }[] };
}
interface ConfigMap extends Manifest {
  data: Record<string, string>;
}
interface Secret extends Manifest {
  stringData: Record<string, string>;
}
interface PodDisruptionBudget extends Manifest {
  spec: { maxUnavailable?: number; minAvailable?: number; selector: { matchLabels: Record<string, string> } };
}
interface Ingress extends Manifest {
  spec: {
    tls?: { hosts: string[]; secretName: string }[];
    rules: { host: string; http: { paths: { path: string; backend: { service: { name: string; port: { name?: string; number?: number } } } }[] } }[];
  };
}
interface Kustomization {
  namespace: string;
  resources: string[];
  images: { name: string; newName?: string; newTag: string }[];
}
type ConfigClass = new () => BaseConfig;

const compose = parse(readFileSync(join(__dirname, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
/** The apps compose builds from their Dockerfiles, and of those the ones production runs. */
const COMPOSE_APPS = Object.keys(compose.services).filter((name) => compose.services[name].build);
const SERVICES = COMPOSE_APPS.filter((app) => app !== SANDBOX);
const composePort = (app: string) => Number(compose.services[app].environment?.PORT);

const kustomization = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as Kustomization;
const manifests: Manifest[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`deploy/kubernetes/${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as Manifest;
  }),
);
const all = <T extends Manifest>(kind: string) => manifests.filter((m) => m.kind === kind) as T[];
function one<T extends Manifest>(kind: string, name: string): T {
  const found = all<T>(kind).filter((m) => m.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} "${name}" in deploy/kubernetes, found ${found.length}`);
  return found[0];
}
const deployment = (app: string) => one<Deployment>('Deployment', app);
const mainContainer = (app: string) => {
  const container = deployment(app).spec.template.spec.containers.find((c) => c.name === app);
  if (!container) throw new Error(`Deployment ${app} has no container named ${app}`);
  return container;
};

/** The image a Dockerfile says it builds: `docker build -f docker/<app>.Dockerfile -t <image> .` in its header. */
function dockerfileImage(app: string): string {
  const dockerfile = readFileSync(join(ROOT, compose.services[app].build?.dockerfile ?? `docker/${app}.Dockerfile`), 'utf8');
  const image = / -t (\S+) \.\s*$/m.exec(dockerfile)?.[1];
  if (!image) throw new Error(`docker/${app}.Dockerfile names no image (-t) in its build command`);
  return image;
}

/** The app's config class (`apps/<app>/src/config/*.config.ts`): the settings it reads and requires. */
function configClass(app: string): ConfigClass {
  const dir = join(ROOT, 'apps', app, 'src', 'config');
  const classes = readdirSync(dir)
    .filter((file) => file.endsWith('.config.ts'))
    .flatMap((file) => Object.values(jest.requireActual<Record<string, unknown>>(join(dir, file))))
    .filter((value): value is ConfigClass => typeof value === 'function' && value.prototype instanceof BaseConfig);
  if (classes.length !== 1) throw new Error(`apps/${app}/src/config: expected one BaseConfig class, found ${classes.length}`);
  return classes[0];
}
const CONFIG = Object.fromEntries(SERVICES.map((app) => [app, configClass(app)]));

/** The Secret as shipped, or with every value left empty for the operator filled in (as `openssl rand -base64 32` would). */
function secretData(name: string, filled: boolean): Record<string, string> {
  const data = { ...one<Secret>('Secret', name).stringData };
  if (filled) for (const key of Object.keys(data)) if (data[key] === '') data[key] = randomBytes(32).toString('base64');
  return data;
}
/** What a container's process finds in its environment (envFrom in order, then env). */
function environment(container: Container, filled: boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, one<ConfigMap>('ConfigMap', from.configMapRef.name).data);
    if (from.secretRef) Object.assign(env, secretData(from.secretRef.name, filled));
  }
  for (const { name, value } of container.env ?? []) env[name] = value ?? '';
  return env;
}
/** The app's config as its pod loads it, once the Secret is filled in. */
const productionConfig = (app: string) => loadConfig(CONFIG[app], environment(mainContainer(app), true));

/**
 * The secrets an app requires in production, from its code (its @Secret() settings): those it refuses to start
 * without, named by its own check when given nothing but NODE_ENV=production.
 */
function requiredSecrets(app: string): string[] {
  try {
    loadConfig(CONFIG[app], { NODE_ENV: 'production' });
    return [];
  } catch (err) {
    const refused = /Refusing to start in production with development defaults for: (.*)\. Set them/.exec(String(err));
    if (!refused) throw err;
    return refused[1].split(', ');
  }
}

/** A probe's or a Service's port, by number or by the container port's name. */
function containerPort(container: Container, port: number | string | undefined): number | undefined {
  return typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;
}

/** CPU in cores, memory in bytes. */
function quantity(value: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi)?$/.exec(value ?? '');
  if (!match) throw new Error(`not a quantity: ${value}`);
  const unit = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}

describe('deploy/kubernetes', () => {
  it('kustomization.yaml lists every file in the folder, all in the Namespace it creates', () => {
    const files = readdirSync(K8S).filter((file) => file !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    expect(all('Namespace').map((n) => n.metadata.name)).toEqual([kustomization.namespace]);
    expect(manifests.filter((m) => m.metadata.namespace !== undefined && m.metadata.namespace !== kustomization.namespace)).toEqual([]);
  });

  it('runs every service of docker/compose.yaml but the sandbox: a Deployment and a Service each, same image and port', () => {
    expect(COMPOSE_APPS).toContain(SANDBOX);
    expect(all('Deployment').map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    expect(all('Service').map((s) => s.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const app of SERVICES) {
      const port = composePort(app);
      const container = mainContainer(app);
      expect({ app, image: container.image }).toEqual({ app, image: dockerfileImage(app) });
      expect({ app, PORT: environment(container, true).PORT, http: containerPort(container, 'http') }).toEqual({ app, PORT: String(port), http: port });
      const pods = deployment(app).spec.template.metadata.labels;
      expect(pods).toEqual(expect.objectContaining(deployment(app).spec.selector.matchLabels));
      const service = one<Service>('Service', app);
      expect(pods).toEqual(expect.objectContaining(service.spec.selector));
      for (const { port: servicePort, targetPort } of service.spec.ports) expect({ app, servicePort }).toEqual({ app, servicePort: containerPort(container, targetPort) });
      expect(service.spec.ports.find((p) => p.name === 'http')?.port).toBe(port);
    }
    // nothing of the sandbox: no workload, and no setting pointing at it
    const text = kustomization.resources.map((file) => readFileSync(join(K8S, file), 'utf8')).join('\n');
    expect(text).not.toContain(SANDBOX);
    expect(text).not.toContain(`:${composePort(SANDBOX)}`);
  });

  it("tags each app's image with the app's version (apps/<app>/package.json)", () => {
    const versions = SERVICES.map((app) => ({ name: dockerfileImage(app), newTag: (JSON.parse(readFileSync(join(ROOT, 'apps', app, 'package.json'), 'utf8')) as { version: string }).version }));
    expect(kustomization.images.map(({ name, newTag }) => ({ name, newTag }))).toEqual(expect.arrayContaining(versions));
    expect(kustomization.images).toHaveLength(SERVICES.length);
  });

  it('probes GET /health/ready (readiness) and GET /health (liveness, start-up) on the public port, where production serves them', () => {
    for (const app of SERVICES) {
      const container = mainContainer(app);
      const probe = (p: HttpProbe | undefined) => ({ app, path: p?.httpGet?.path, port: containerPort(container, p?.httpGet?.port) });
      expect(probe(container.readinessProbe)).toEqual({ app, path: '/health/ready', port: composePort(app) });
      expect(probe(container.livenessProbe)).toEqual({ app, path: '/health', port: composePort(app) });
      expect(probe(container.startupProbe)).toEqual({ app, path: '/health', port: composePort(app) });
    }
  });

  it('declares the internal metrics port of production (METRICS_PORT, default PORT + 1000) and annotates it for scraping', () => {
    for (const app of SERVICES) {
      const config = productionConfig(app);
      const metricsPort = config.metricsPort;
      expect({ app, metricsPort }).toEqual({ app, metricsPort: config.PORT + 1000 });
      const container = mainContainer(app);
      expect({ app, declared: containerPort(container, 'metrics') }).toEqual({ app, declared: metricsPort });
      expect({ app, annotations: deployment(app).spec.template.metadata.annotations }).toEqual({
        app,
        annotations: expect.objectContaining({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(metricsPort), 'prometheus.io/path': METRICS_PATH }) as unknown,
      });
      expect(one<Service>('Service', app).spec.ports.find((p) => p.name === 'metrics')?.port).toBe(metricsPort);
    }
  });

  describe.each(SERVICES)('%s in production', (app) => {

    it('finds every secret it requires in production in the Secret, left empty there, so that as shipped it refuses to start', () => {
      const required = requiredSecrets(app);
      const secret = one<Secret>('Secret', 'parley-secrets').stringData;
      for (const name of required) expect({ name, inSecret: name in secret, shipped: secret[name] }).toEqual({ name, inSecret: true, shipped: '' });
      const elsewhere = [...Object.keys(one<ConfigMap>('ConfigMap', 'parley-config').data), ...(mainContainer(app).env ?? []).map((e) => e.name)];
      expect(elsewhere.filter((name) => required.includes(name))).toEqual([]);
      if (required.length > 0) expect(() => loadConfig(CONFIG[app], environment(mainContainer(app), false))).toThrow(`development defaults for: ${required.join(', ')}.`);
    });

    it('starts with the ConfigMap and the Secret once the Secret is filled in', () => {
      const config = productionConfig(app);
      expect(config.isProduction).toBe(true);
      expect(config.PORT).toBe(composePort(app));
    });

    it('migrates before it starts: an init container running the migrate.js compose runs, with the same image and settings', () => {
      const init = deployment(app).spec.template.spec.initContainers ?? [];
      expect(init.map((c) => c.name)).toEqual(['migrate']);
      const migrate = `node dist/apps/${app}/src/migrate.js`;
      expect(compose.services[app].command?.join(' ')).toContain(migrate);
      expect(init[0].command?.join(' ')).toBe(migrate);
      expect(init[0].image).toBe(mainContainer(app).image);
      expect(init[0].envFrom).toEqual(mainContainer(app).envFrom);
      expect(() => loadConfig(CONFIG[app], environment(init[0], true))).not.toThrow();
    });

    it("stops gracefully: the pod's grace covers the preStop pause and the service's own shutdown deadline (SHUTDOWN_GRACE_MS)", () => {
      const config = productionConfig(app);
      const spec = deployment(app).spec.template.spec;
      const preStop = mainContainer(app).lifecycle?.preStop?.exec?.command ?? [];
      const pauseMs = preStop[0] === 'sleep' ? Number(preStop[1]) * 1000 : 0;
      expect(preStop.length === 0 || pauseMs > 0).toBe(true);
      expect((spec.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(pauseMs + config.SHUTDOWN_GRACE_MS);
      // stopping waits for the consumer's fetch in flight, which the broker may hold this long
      expect(config.KAFKA_FETCH_MAX_WAIT_MS).toBeLessThan(config.SHUTDOWN_GRACE_MS);
    });

    it('scales out with rolling updates that never drop below the running count, under a disruption budget', () => {
      const { spec } = deployment(app);
      expect(spec.replicas).toBeGreaterThanOrEqual(2);
      expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: expect.objectContaining({ maxUnavailable: 0 }) as unknown });
      const budgets = all<PodDisruptionBudget>('PodDisruptionBudget').filter((b) => JSON.stringify(b.spec.selector.matchLabels) === JSON.stringify(spec.selector.matchLabels));
      expect(budgets).toHaveLength(1);
      expect(budgets[0].spec.maxUnavailable ?? spec.replicas - (budgets[0].spec.minAvailable ?? 0)).toBeLessThan(spec.replicas);
    });

    it('runs every container non-root on a read-only file system, with CPU and memory requests and limits', () => {
      const spec = deployment(app).spec.template.spec;
      expect(spec.securityContext?.runAsNonRoot).toBe(true);
      expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
      for (const container of [...(spec.initContainers ?? []), ...spec.containers]) {
        const { requests, limits } = container.resources ?? {};
        for (const resource of ['cpu', 'memory'] as const) {
          expect(quantity(requests?.[resource])).toBeGreaterThan(0);
          expect(quantity(limits?.[resource])).toBeGreaterThanOrEqual(quantity(requests?.[resource]));
        }
        expect(container.securityContext).toEqual(expect.objectContaining({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true }));
      }
    });
  });

  it('finds the secrets the services require in production in their code (so the checks of them are not vacuous)', () => {
    expect(SERVICES.flatMap(requiredSecrets).length).toBeGreaterThan(0);
  });

  it('sets only names the services read, keeps the sandbox off, and points nothing at a development default', () => {
    const known = new Set(SERVICES.flatMap((app) => Object.keys(new CONFIG[app]())));
    const configMap = one<ConfigMap>('ConfigMap', 'parley-config').data;
    const secret = one<Secret>('Secret', 'parley-secrets').stringData;
    const env = SERVICES.flatMap((app) => deployment(app).spec.template.spec.containers.flatMap((c) => (c.env ?? []).map((e) => e.name)));
    expect([...Object.keys(configMap), ...Object.keys(secret), ...env].filter((name) => !known.has(name))).toEqual([]);
    expect(Object.keys(configMap).filter((name) => name in secret)).toEqual([]);
    for (const app of SERVICES) {
      const config = productionConfig(app) as BaseConfig & { SANDBOX_ENABLED?: boolean };
      expect({ app, sandbox: config.SANDBOX_ENABLED ?? false }).toEqual({ app, sandbox: false });
      // the development defaults of the connections (127.0.0.1) are all replaced
      for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL'] as const) expect({ app, name, local: config[name].includes('127.0.0.1') }).toEqual({ app, name, local: false });
    }
  });

  it("exposes the gateway (compose's one published service besides the sandbox) through the Ingress, on PUBLIC_BASE_URL's host", () => {
    const published = SERVICES.filter((app) => compose.services[app].ports?.length);
    const [ingress] = all<Ingress>('Ingress');
    expect(all('Ingress')).toHaveLength(1);
    const host = new URL(one<ConfigMap>('ConfigMap', 'parley-config').data.PUBLIC_BASE_URL).host;
    expect(ingress.spec.rules.map((r) => r.host)).toEqual([host]);
    expect(ingress.spec.tls?.flatMap((t) => t.hosts)).toEqual([host]);
    const backends = ingress.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service));
    expect([...new Set(backends.map((b) => b.name))]).toEqual(published);
    for (const backend of backends) {
      const port = one<Service>('Service', backend.name).spec.ports.find((p) => p.name === backend.port.name || p.port === backend.port.number);
      expect(port?.port).toBe(composePort(backend.name));
    }
  });
});
