import { Module, type DynamicModule } from '@nestjs/common';
import { InboxLinks } from './inbox-events';

/** Links into the dashboard on the gateway's public origin (PUBLIC_BASE_URL), for every module that builds inbox events. */
@Module({})
export class InboxLinksModule {
  static forRoot(publicUrl: string): DynamicModule {
    return { module: InboxLinksModule, global: true, providers: [{ provide: InboxLinks, useValue: new InboxLinks(publicUrl) }], exports: [InboxLinks] };
  }
}
