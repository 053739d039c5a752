import { BuiltSite, type BuildReader } from '../http/built-site';

/** The dashboard's `vite build` output: a single-page app, so any page path gets `index.html` and its router. */
export class DashboardAssets extends BuiltSite {
  constructor(readBuild: BuildReader) {
    super(readBuild, 'single-page-app');
  }
}
