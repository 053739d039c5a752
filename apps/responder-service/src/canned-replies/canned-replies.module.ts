import { Module } from '@nestjs/common';
import { CannedRepliesRpcController } from './canned-replies.rpc.controller';
import { CannedRepliesService } from './canned-replies.service';
import { CannedRepliesStore } from './canned-replies.store';

@Module({ controllers: [CannedRepliesRpcController], providers: [CannedRepliesService, CannedRepliesStore] })
export class CannedRepliesModule {}
