import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ListCursors } from './list-cursors';

/** Provides the service's `ListCursors`, keyed with its `CURSOR_SECRET`, to every feature module. */
@Global()
@Module({})
export class CursorsModule {
  static forRoot(secret: string): DynamicModule {
    return { module: CursorsModule, providers: [{ provide: ListCursors, useValue: new ListCursors(secret) }], exports: [ListCursors] };
  }
}
