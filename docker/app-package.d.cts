// Types of app-package.cjs for TypeScript callers (docker/deployment.spec.ts).
export declare function scanApp(app: string, root?: string): { dependencies: Record<string, string>; libraries: string[] };
export declare function appPackage(app: string, root?: string): { name: string; version: string; private: true; dependencies: Record<string, string> };
