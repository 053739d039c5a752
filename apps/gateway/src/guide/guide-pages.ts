import { BuiltSite, type BuildReader } from '../http/built-site';

/** The docs site's `vitepress build` output (dist/docs): static pages under clean URLs. */
export class GuidePages extends BuiltSite {
  constructor(readBuild: BuildReader) {
    super(readBuild, 'static-pages');
  }
}
