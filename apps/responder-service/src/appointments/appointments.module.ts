import { Module } from '@nestjs/common';
import { AppointmentsRpcController } from './appointments.rpc.controller';
import { AppointmentsService } from './appointments.service';

@Module({ controllers: [AppointmentsRpcController], providers: [AppointmentsService], exports: [AppointmentsService] })
export class AppointmentsModule {}
