import { Module } from '@nestjs/common';
import { TenantsModule } from '../identity/tenants/tenants.module';
import { AdminController } from './admin.controller';
import { AdminGuard } from './admin.guard';

@Module({ imports: [TenantsModule], controllers: [AdminController], providers: [AdminGuard] })
export class AdminModule {}
