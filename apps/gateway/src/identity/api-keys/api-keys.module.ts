import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';
import { ApiKeysStore } from './api-keys.store';

@Module({ imports: [TenantsModule], controllers: [ApiKeysController], providers: [ApiKeysService, ApiKeysStore], exports: [ApiKeysService] })
export class ApiKeysModule {}
